import type { HttpClient } from './http.js';

// Options objects built by `withOptions`, and the HttpClient of the client they derive from.
const parents = new WeakMap<object, HttpClient>();

/** Marks `options` as those of a client derived (`withOptions`) from the client whose HTTP layer is `http`. */
export function derivedFrom<T extends object>(options: T, http: HttpClient): T {
  parents.set(options, http);
  return options;
}

/** The HTTP layer of the client `options` derive from (what it may share, such as its throttle), if any. */
export function parentOf(options: object): HttpClient | undefined {
  return parents.get(options);
}
