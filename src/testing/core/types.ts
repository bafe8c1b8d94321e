/** Which wire shapes the reference server sends: the spec's, or the real Laravel servers'. */
export type Flavor = 'spec' | 'laravel';

/** Language of the Catalog envelope words (`status`, `msg`): the spec's Arabic or the English defaults. */
export type Locale = 'ar' | 'en';

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

/** The account behind a Catalog key, in the spec's shape. */
export interface Account {
  name: { firstname: string; lastname: string; full_name: string };
  username: string;
  email: string;
  balance: number;
  currency: string;
  profile: {
    heading: string;
    description: string;
    contact: { email: string };
    social_links: Record<string, string> | null;
    media: { avatar: string; cover: string };
  };
  registered_at: string;
}

/** Media URLs of an item; which ones exist depends on its kind (image, audio, video). */
export interface ItemMedia {
  thumbnail: string;
  preview_image?: string;
  preview_video?: string;
  preview_audio?: string;
  screenshots?: string[];
}

/** A stored catalog item. `options` is kept as the real server's map; the spec flavor sends its values. */
export interface Item {
  id: number;
  name: string;
  description: string;
  category: string;
  sub_category: string | null;
  options: Record<string, string | string[]> | null;
  version: string | null;
  demo_link: string | null;
  tags: string[];
  media: ItemMedia;
  price: { regular: number; extended: number };
  currency: string;
  published_at: string;
}

/** A stored purchase: `supported_until` is null when support is disabled. */
export interface Purchase {
  purchase_code: string;
  license_type: string;
  price: number;
  currency: string;
  item_id: number;
  supported_until: string | null;
  downloaded: boolean;
  date: string;
}

/** A fetch-style handler, the one thing the adapters need from a server. */
export interface FetchHandler {
  /** Answers one request, as the server would. */
  fetch(request: Request): Promise<Response>;
}
