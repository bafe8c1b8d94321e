/** The ten pixel types of the spec. */
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

/** A pixel as the Management API returns it. */
export interface Pixel {
  id: number;
  name: string;
  type: string;
  value: string;
  created_at: string;
  updated_at: string;
}

/** A domain as the Management API returns it. */
export interface Domain {
  id: number;
  name: string;
  url: string;
  index_page: string | null;
  not_found_page: string | null;
  created_at: string;
  updated_at: string;
}
