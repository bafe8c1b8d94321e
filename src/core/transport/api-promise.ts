/** A parsed result together with the raw `Response` it came from. */
export interface WithResponse<T> {
  /** The parsed, validated result. */
  data: T;
  /** The HTTP response: status and headers (such as `X-RateLimit-Remaining`); its body is already read. */
  response: Response;
  /**
   * A purchase validation of a Catalog client with a `cache`: where the answer came from (`miss`: the server;
   * `hit`, `stale`: the cache, with a stand-in 200 `response` carrying `X-Content-Platform-Cache`).
   */
  cache?: 'miss' | 'hit' | 'stale' | undefined;
}

/**
 * The promise every call returns: await it for the result, or call `.withResponse()` for the result and
 * the raw `Response` too, from the same single request.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #result: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  /** `then`, `catch` and `finally` give plain promises, without `.withResponse()`. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** Wraps a pending `{ data, response }`; the request is already under way. */
  constructor(result: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#result = result;
  }

  /** The result and the raw `Response`, without a second request. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  #value(): Promise<T> {
    this.#data ??= this.#result.then((r) => r.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a Promise; awaiting it must run the request.
  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#value().then(onfulfilled, onrejected);
  }

  override catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#value().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#value().finally(onfinally);
  }
}

/**
 * Calls `start` and returns its promise. Bad input that `start` throws before any request becomes a rejection
 * of the returned promise instead, so every method fails the same way: `await`, `.catch()` and
 * `.withResponse()` all see it.
 */
export function deferred<T>(start: () => APIPromise<T>): APIPromise<T> {
  try {
    return start();
  } catch (error) {
    return new APIPromise<T>(rejected(error));
  }
}

/** A rejection that is not reported as unhandled until the caller looks at it (it may await it later). */
export function rejected(error: unknown): Promise<never> {
  const promise = Promise.reject(error);
  promise.catch(() => {});
  return promise;
}
