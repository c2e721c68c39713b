import { fieldInvalid } from './errors.js';
import { imageKind, MAX_REFERENCE_BYTES } from './creation.js';

/** All reference photos of one creation together (they are held in memory until checked). */
export const MAX_REFERENCES_TOTAL_BYTES = 50 * 1024 * 1024;

/** `reference` (the one-signer form) or a signer's index in the `signers` list. */
export type PhotoSlot = 'reference' | number;
export const photoField = (slot: PhotoSlot) => (slot === 'reference' ? 'reference' : `signer_photo_${slot}`);

/**
 * The reference photos of a creation stream as they arrive: each photo's chunks contiguous, sent
 * once, a JPEG or PNG by its first bytes, at most 10 MB each and 50 MB together. Errors name the part.
 */
export class PhotoCollector {
  private readonly parts = new Map<PhotoSlot, Buffer[]>();
  private readonly sizes = new Map<PhotoSlot, number>();
  private readonly kinds = new Set<PhotoSlot>();
  private last: PhotoSlot | undefined;
  private total = 0;

  /** A chunk of `slot`'s photo; `lastPartWasPhoto`: the previous stream message was a chunk of a photo. */
  add(slot: PhotoSlot, bytes: Buffer, lastPartWasPhoto: boolean): void {
    const field = photoField(slot);
    if (this.parts.has(slot) && !(lastPartWasPhoto && this.last === slot)) throw fieldInvalid(field, 'sent more than once');
    const size = (this.sizes.get(slot) ?? 0) + bytes.length;
    if (size > MAX_REFERENCE_BYTES) throw fieldInvalid(field, 'must be at most 10 MB');
    this.total += bytes.length;
    if (this.total > MAX_REFERENCES_TOTAL_BYTES) throw fieldInvalid(field, 'the reference photos must be at most 50 MB together');
    const chunks = this.parts.get(slot) ?? [];
    chunks.push(bytes);
    this.parts.set(slot, chunks);
    this.sizes.set(slot, size);
    this.last = slot;
    if (!this.kinds.has(slot)) {
      const kind = imageKind(Buffer.concat(chunks));
      if (kind === null) throw fieldInvalid(field, 'must be a JPEG or PNG image');
      if (kind) this.kinds.add(slot);
    }
  }

  /** The photos received, whole, in slot order ('reference' first, then by signer index). */
  photos(): Map<PhotoSlot, Buffer> {
    const slots = [...this.parts.keys()].sort((a, b) => (a === 'reference' ? -1 : b === 'reference' ? 1 : a - b));
    return new Map(slots.map((s) => [s, Buffer.concat(this.parts.get(s)!, this.sizes.get(s))]));
  }
}
