/** The pixel types of the spec, in its order. */
export const PIXEL_TYPES = [
  'adroll',
  'bing',
  'facebook',
  'google-ads',
  'google-analytics',
  'google-tag-manager',
  'linkedin',
  'pinterest',
  'quora',
  'x',
] as const;

/** A pixel type the spec names. */
export type PixelType = (typeof PIXEL_TYPES)[number];

/** `true` when `type` is one of the spec's pixel types (a server may send a newer one). */
export function isKnownPixelType(type: string): type is PixelType {
  return (PIXEL_TYPES as readonly string[]).includes(type);
}
