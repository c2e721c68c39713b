/** Field boxes in PDF points on a page: defaults per kind, clamping to the page, moves and resizes. */
import type { PageSize } from '../../../shared/pdf.js';

export type Box = { x: number; y: number; width: number; height: number };

/** A new field's size in points (a signature line, a checkbox, a one-line text). */
export const DEFAULT_SIZE: Record<string, [number, number]> = {
  signature: [160, 40],
  initials: [60, 30],
  date_signed: [100, 16],
  full_name: [150, 16],
  email: [180, 16],
  text: [150, 16],
  checkbox: [14, 14],
  dropdown: [120, 18],
};
export const MIN_SIZE = 8;

/**
 * A page drawn blank at its size, when its PDF cannot be shown (through the CSSOM: a style attribute
 * is inline style, which the dashboard's CSP refuses).
 */
export function blankPage(n: number, size: PageSize): HTMLDivElement {
  const element = document.createElement('div');
  element.className = 'pdf-page';
  element.dataset.page = String(n);
  element.style.aspectRatio = `${size.width} / ${size.height}`;
  return element;
}

const r2 = (v: number) => Math.round(v * 100) / 100;

/** The box kept inside its page (moved back, then shrunk when it is larger than the page). */
export function clamp(b: Box, page: PageSize): Box {
  const width = Math.min(Math.max(b.width, MIN_SIZE), page.width);
  const height = Math.min(Math.max(b.height, MIN_SIZE), page.height);
  return {
    x: r2(Math.min(Math.max(b.x, 0), page.width - width)),
    y: r2(Math.min(Math.max(b.y, 0), page.height - height)),
    width: r2(width),
    height: r2(height),
  };
}

/** Moved by (dx, dy) points, dy upwards (PDF space). */
export const moved = (b: Box, dx: number, dy: number, page: PageSize) => clamp({ ...b, x: b.x + dx, y: b.y + dy }, page);

/** The bottom-right corner dragged by (dx, dy) points, dy upwards: the top edge stays. */
export function resized(b: Box, dx: number, dy: number, page: PageSize): Box {
  const width = Math.min(Math.max(b.width + dx, MIN_SIZE), page.width - b.x);
  const height = Math.min(Math.max(b.height - dy, MIN_SIZE), b.y + b.height);
  return clamp({ x: b.x, y: b.y + b.height - height, width, height }, page);
}
