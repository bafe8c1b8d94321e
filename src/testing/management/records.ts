/** The ten pixel types of the spec: the only `type` values the server accepts on create and update. */
export const ACCEPTED_PIXEL_TYPES = [
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

/** A pixel as the store keeps it and the Management API sends it (the SDK's parsed shape is `Pixel`). */
export interface StoredPixel {
  id: number;
  name: string;
  type: string;
  value: string;
  created_at: string;
  updated_at: string;
}

/** A domain as the store keeps it and the Management API sends it (the SDK's parsed shape is `Domain`). */
export interface StoredDomain {
  id: number;
  name: string;
  url: string;
  index_page: string | null;
  not_found_page: string | null;
  created_at: string;
  updated_at: string;
}
