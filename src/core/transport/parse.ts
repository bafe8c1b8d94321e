import { type $ZodRawIssue, safeParse, type $ZodType as ZodType } from 'zod/v4/core';
import type { APIError, ClientFacts, ContentPlatformError, Scrub } from '../errors/index.js';
import {
  type Answer,
  decodeAnswer,
  isRedirect,
  notJsonError,
  redirectError,
  statusError,
  validationError,
} from '../errors/index.js';
import { type Records, refuseLong } from './records.js';
import { PARSE_CONTEXT } from './schema.js';

/**
 * Reads an API's own error envelope from any answer (2xx included), scrubbed; `undefined` when not one. On an error
 * answer, `answer` is scrubbed and `raw` is the same answer unscrubbed, to recognise the envelope by: a short key or
 * purchase code masked in it could hide its `status` (a code "s"). A reader that reads `raw` scrubs what it keeps.
 */
export type ReadError = (answer: Answer, path: string, scrub: Scrub, raw?: Answer) => APIError | undefined;

/** What an answer was the answer to: the call's name and scrub, each built only when a failure asks for it. */
export interface Asker {
  /** `METHOD url` (redacted), for messages. */
  readonly label: string;
  /** Masks the key and the call's purchase codes. */
  readonly scrub: Scrub;
  /** What the client was built with and has learnt, for a message's advice (absent: no advice). */
  readonly facts?: ClientFacts | undefined;
}

/** One answer, already read, and what it was the answer to. */
export interface Answered {
  response: Response;
  text: string;
  trace: Asker;
  path: string;
}

/**
 * A 2xx answer as the schema's result (`schema`: with its generated parser installed, where there is one).
 * @throws the API's envelope error, or ResponseValidationError (not JSON, not the schema's shape, or a list
 * longer than `records` allows)
 */
export function parseAnswer<T>(a: Answered, schema: ZodType<T>, readError: ReadError, records?: Records): T {
  const { trace } = a;
  if (records) refuseLong(a, records);
  const answer = decodeAnswer(a.response, a.text, trace);
  // An envelope is rare on a 2xx: its reader gets the scrub only then.
  const envelopeError = readError(answer, a.path, (text) => trace.scrub(text));
  if (envelopeError) throw envelopeError;
  // Failures re-read the body with the key scrubbed: a 2xx body could echo it into the error too.
  const scrubbed = () => decodeAnswer(a.response, a.text, trace, trace.scrub);
  if (!answer.isJson) throw notJsonError(scrubbed(), a.response);
  if (records) refuseLong(a, records, answer.body);
  const parsed = safeParse(schema, answer.body, PARSE_CONTEXT);
  if (!parsed.success) {
    // Worded once the messages are loaded (`explained`): the same parse again, with them.
    throw new Misfit((error) => {
      const again = safeParse(schema, answer.body, { ...PARSE_CONTEXT, error });
      return validationError(scrubbed(), (again.error ?? parsed.error).issues, trace.scrub);
    });
  }
  return parsed.data;
}

/** A 2xx body that does not fit its schema, its error not worded yet: see `explained`. */
export class Misfit {
  constructor(readonly word: (error: (issue: $ZodRawIssue) => string) => ContentPlatformError) {}
}

/** The `ResponseValidationError` of a misfit, in English: the messages load on the first one. */
export async function explained(misfit: Misfit): Promise<ContentPlatformError> {
  const { englishIssue } = await import('./schema-messages.js');
  return misfit.word(englishIssue);
}

/** A non-2xx answer as an error: a redirect, the API's own error envelope, or the status class. */
export function answerError(a: Answered, readError: ReadError): APIError {
  const { scrub } = a.trace;
  const answer = decodeAnswer(a.response, a.text, a.trace, scrub);
  if (isRedirect(a.response)) return redirectError(answer, a.response);
  return readError(answer, a.path, scrub, decodeAnswer(a.response, a.text, a.trace)) ?? statusError(answer);
}
