/**
 * Images in the chat (docs/side-panel.md): an attached image (or one a provider returned) as a thumbnail made
 * from its stored bytes, never fetched (R3); click to see it whole in a modal dialog. Only real
 * PNG, JPEG, GIF and WebP bytes are shown (the format is read from the bytes, not taken from the
 * declared media type, so an SVG or HTML payload labelled `image/png` never renders); a remote
 * image shows as its URL, as text.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { IMAGE_MEDIA_TYPE, imageSizeOfBase64, type ImageSize } from '../../lib/transcript/image-size';

/** An image block or a tool result's image part. */
export interface ImageLike {
  mediaType: string;
  data?: string | undefined;
  url?: string | undefined;
}

/** Approximate size of base64 data, e.g. `34 KB`. */
export function base64Size(data: string): string {
  const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  return bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${Math.round(bytes / 1024)} KB`
      : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function bytesOf(data: string): Uint8Array | undefined {
  try {
    const bin = atob(data);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** A `blob:` URL of the image's own bytes (typed by what they really are), revoked when no longer shown. */
function useBlobUrl(data: string | undefined, size: ImageSize | undefined): string | undefined {
  const url = useMemo(() => {
    if (!data || !size) return undefined;
    const bytes = bytesOf(data);
    return bytes
      ? URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: IMAGE_MEDIA_TYPE[size.format] }))
      : undefined;
  }, [data, size]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return url;
}

/** "PNG image, 640 × 480, 6 KB". */
function describe(size: ImageSize, data: string): string {
  return `${size.format.toUpperCase()} image, ${size.width} × ${size.height}, ${base64Size(data)}`;
}

/** The text shown instead of an image that cannot be shown (R3 for URLs: the full URL, never fetched). */
export function imageText(b: ImageLike, what = 'Image'): string {
  return b.url ? `[${what}: ${b.url}]` : `[${what} attached: ${b.mediaType}${b.data ? `, ${base64Size(b.data)}` : ''}]`;
}

export interface ImageThumbProps {
  image: ImageLike;
  /** Who it is from, for the names: "Attached image", "Image from the model". */
  what?: string;
}

/** One image as a thumbnail button opening a dialog with the whole image; text when it cannot be shown. */
export function ImageThumb({ image, what = 'Image' }: ImageThumbProps) {
  const size = useMemo(() => (image.data ? imageSizeOfBase64(image.data) : undefined), [image.data]);
  const url = useBlobUrl(image.data, size);
  const [open, setOpen] = useState(false);
  if (!url || !size || !image.data) return <div class="block-placeholder">{imageText(image, what)}</div>;
  const label = describe(size, image.data);
  return (
    <>
      <button
        type="button"
        class="image-thumb"
        data-image-thumb=""
        aria-label={`${what}: ${label}. Open larger`}
        title={label}
        onClick={() => setOpen(true)}
      >
        <img src={url} alt="" width={size.width} height={size.height} draggable={false} />
      </button>
      {open ? <ImageDialog url={url} label={`${what}: ${label}`} size={size} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** The whole image in a modal dialog (Escape, the Close button or a click outside the image closes it). */
function ImageDialog({ url, label, size, onClose }: { url: string; label: string; size: ImageSize; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (typeof d.showModal === 'function' && !d.open) d.showModal();
    else d.setAttribute('open', '');
    d.querySelector<HTMLButtonElement>('button')?.focus();
    return () => {
      if (d.open && typeof d.close === 'function') d.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class="image-dialog"
      aria-label={label}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div class="image-dialog-bar">
        <span class="image-dialog-label">{label}</span>
        <button type="button" class="mini" onClick={onClose}>
          Close
        </button>
      </div>
      <img src={url} alt={label} width={size.width} height={size.height} />
    </dialog>
  );
}
