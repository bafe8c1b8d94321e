import type { AudioMedia, ImageMedia, Item, VideoMedia } from './schemas.js';

/** An item whose media is audio: `item.media.preview_audio` is a string. */
export type AudioItem = Item & { media: AudioMedia };
/** An item whose media is video: `item.media.preview_video` is a string. */
export type VideoItem = Item & { media: VideoMedia };
/** An item whose media is neither audio nor video. */
export type ImageItem = Item & { media: ImageMedia };

/** `true` for an audio item; narrows `item.media` so `preview_audio` is known to exist. */
export function isAudioItem(item: Item): item is AudioItem {
  return item.media.kind === 'audio';
}

/** `true` for a video item; narrows `item.media` so `preview_video` is known to exist. */
export function isVideoItem(item: Item): item is VideoItem {
  return item.media.kind === 'video';
}

/** `true` for an item that is neither audio nor video. */
export function isImageItem(item: Item): item is ImageItem {
  return item.media.kind === 'image';
}
