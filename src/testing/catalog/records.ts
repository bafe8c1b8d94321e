/** The account behind a Catalog key, as the store keeps it, in the spec's shape (the SDK's is `Account`). */
export interface StoredAccount {
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
export interface StoredItemMedia {
  thumbnail: string;
  preview_image?: string;
  preview_video?: string;
  preview_audio?: string;
  screenshots?: string[];
}

/** A stored catalog item. `options` is kept as the real server's map; the spec flavor sends its values. */
export interface StoredItem {
  id: number;
  name: string;
  description: string;
  category: string;
  sub_category: string | null;
  options: Record<string, string | string[]> | null;
  version: string | null;
  demo_link: string | null;
  tags: string[];
  media: StoredItemMedia;
  price: { regular: number; extended: number };
  currency: string;
  published_at: string;
}

/** A stored purchase: `supported_until` is null when support is disabled. */
export interface StoredPurchase {
  purchase_code: string;
  license_type: string;
  price: number;
  currency: string;
  item_id: number;
  supported_until: string | null;
  downloaded: boolean;
  date: string;
}
