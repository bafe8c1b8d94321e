/**
 * The msw adapter of the reference server: handlers that forward a client's requests to it.
 * @module
 */
export { createMswHandlers, MSW_DEFAULT_URLS, type MswHandlerOptions } from './adapters/msw.js';
