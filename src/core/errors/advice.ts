/**
 * What a client was built with, for the advice an error's message ends with: where the key came from, which option
 * holds the URL. Static, built once per client; the messages read it only when such an error happens.
 */
export interface ClientSetup {
  /** Where the key came from: `apiKey` (the option), or the environment variable that held it. */
  readonly keyFrom: string;
  /** The option holding the site URL: `baseUrl` or `siteUrl`. */
  readonly urlOption: string;
  /** The environment variable the URL came from, when it did not come from the option. */
  readonly urlEnv: string | undefined;
  /** The API root the client calls, e.g. `https://x.test/api/v1` (scrubbed, like every URL a message shows). */
  readonly apiRoot: string;
  /** The path the SDK appends to the site root: `/api/v1` or `/api`. */
  readonly apiPath: string;
}

/** A client's setup, and what its calls have learnt since. */
export interface ClientFacts extends ClientSetup {
  /** The server has answered this key with a success (this client, or one derived with the same key and URL). */
  readonly keyAccepted: boolean;
}

/** `message`, then `advice` as a sentence of its own (nothing to add: `message` as it is). */
export function advise(message: string, advice: string | undefined): string {
  if (advice === undefined) return message;
  return `${message}${/[.!?]"?$/.test(message) ? '' : '.'} ${advice}`;
}

/** What a refused key's message adds: where the key came from, so the right one gets fixed. */
export function keyAdvice(facts: ClientSetup | undefined): string | undefined {
  if (facts === undefined) return undefined;
  const from =
    facts.keyFrom === 'apiKey' ? 'the `apiKey` option' : `the environment variable ${facts.keyFrom}`;
  return `Check the API key: it came from ${from}.`;
}

/**
 * What a 404 adds when the client's URL repeats the API path (`baseUrl: 'https://x/api'` calls
 * `https://x/api/api/v1/…`): the site root its URL option should be. `undefined` when the URL does not.
 */
export function rootAdvice(facts: ClientSetup | undefined): string | undefined {
  // The API root ends with the path the SDK appended: two or more API paths in a row there are one too many.
  const twice = facts && /(\/api(\/v1)?){2,}$/.exec(facts.apiRoot);
  if (!facts || !twice) return undefined;
  const option = `\`${facts.urlOption}\`${facts.urlEnv === undefined ? '' : ` (from ${facts.urlEnv})`}`;
  return (
    `The URL repeats the API path (${twice[0]}): ${option} should be the site root, ` +
    `${facts.apiRoot.slice(0, twice.index)} (the SDK appends ${facts.apiPath}).`
  );
}
