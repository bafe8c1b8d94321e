/** The SDK's version, sent in the `User-Agent` header as `content-platform-sdk/<version>`. */
export const VERSION = '0.2.0';
