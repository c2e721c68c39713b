import { describe, expect, it } from 'vitest';
import { clamp, moved, resized } from './geometry.js';

const letter = { width: 612, height: 792 };

describe('template editor geometry (PDF points, lower-left origin)', () => {
  it('keeps a box on its page: moved back inside, shrunk to the page at most, never under the minimum', () => {
    expect(clamp({ x: 600, y: 780, width: 100, height: 40 }, letter)).toEqual({ x: 512, y: 752, width: 100, height: 40 });
    expect(clamp({ x: -5, y: -1, width: 700, height: 2 }, letter)).toEqual({ x: 0, y: 0, width: 612, height: 8 });
  });
  it('moves by points, up is +y, and stops at the edges', () => {
    expect(moved({ x: 100, y: 100, width: 50, height: 20 }, 10, 5, letter)).toEqual({ x: 110, y: 105, width: 50, height: 20 });
    expect(moved({ x: 100, y: 100, width: 50, height: 20 }, 1000, -1000, letter)).toEqual({
      x: 562,
      y: 0,
      width: 50,
      height: 20,
    });
  });
  it('resizes from the bottom-right corner: the top edge stays, the box never leaves the page', () => {
    // Dragged right 40 and down 20 (dy -20): wider, taller downwards, its top (y + height = 140) unchanged.
    expect(resized({ x: 100, y: 100, width: 160, height: 40 }, 40, -20, letter)).toEqual({
      x: 100,
      y: 80,
      width: 200,
      height: 60,
    });
    // Pulled past the right edge and the bottom: up to the page.
    expect(resized({ x: 500, y: 10, width: 50, height: 20 }, 500, -500, letter)).toEqual({
      x: 500,
      y: 0,
      width: 112,
      height: 30,
    });
    // Shrunk below the minimum: 8 points, the top edge still where it was.
    expect(resized({ x: 100, y: 100, width: 50, height: 20 }, -100, 100, letter)).toEqual({
      x: 100,
      y: 112,
      width: 8,
      height: 8,
    });
  });
});
