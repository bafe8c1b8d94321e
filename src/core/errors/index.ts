// The errors room: the class tree every failure ends in, turning server answers and failed fetches into it, and
// redaction (what a message, a log line or an error's fields may show). It imports no other room.

export { advise, type ClientFacts, type ClientSetup, keyAdvice, rootAdvice } from './advice.js';
export {
  type Answer,
  type Asking,
  bodyCut,
  decodeAnswer,
  describeBody,
  ERROR_BODY_BYTES,
  type ErrorDetail,
  keepPhrase,
  markCut,
  phraseOf,
  SCRUB_MARGIN,
  scrubHeaders,
  statusError,
} from './answer.js';
export {
  connectionCode,
  connectionError,
  createAnswered,
  isRedirect,
  type LostCall,
  notJsonError,
  ownError,
  pausedError,
  redirectError,
  scrubbedError,
  timeoutError,
  unreadableError,
  validationError,
} from './answer-errors.js';
export * from './classes.js';
export { checkKeys, isGiven, kindOf, nearest, shown } from './known-keys.js';
export {
  escapeControls,
  maskCode,
  maskCodeFields,
  redact,
  redactUrl,
  type Scrub,
  scrubber,
  withCodes,
} from './redact.js';
export { MAX_JSON_DEPTH, scrubParsed } from './scrub-body.js';
export { RESET_EPOCH_FROM, retryAfterSeconds } from './wait.js';
