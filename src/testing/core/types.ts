/** Which wire shapes the reference server sends: the spec's, or the real Laravel servers'. */
export type Flavor = 'spec' | 'laravel';

/** Language of the Catalog envelope words (`status`, `msg`): the spec's Arabic or the English defaults. */
export type Locale = 'ar' | 'en';

/** A fetch-style handler, the one thing the adapters need from a server. */
export interface FetchHandler {
  /** Answers one request, as the server would. */
  fetch(request: Request): Promise<Response>;
}
