import { describe, expect, it } from 'vitest';
import { boxStyle, toPoints } from './pdf.js';

const letter = { width: 612, height: 792 };

describe('PDF points ↔ the rendered page', () => {
  it('places a box from the lower-left origin as percentages from the top-left', () => {
    expect(boxStyle(letter, { x: 61.2, y: 79.2, width: 306, height: 79.2 })).toEqual({
      left: '10.0000%',
      top: '80.0000%',
      width: '50.0000%',
      height: '10.0000%',
    });
  });
  it('reads pixels back as the same points at any shown width', () => {
    const box = { x: 72, y: 100, width: 200, height: 50 };
    for (const shown of [390, 612, 1000]) {
      const k = shown / 612;
      const px = { left: box.x * k, top: (792 - box.y - box.height) * k, width: box.width * k, height: box.height * k };
      expect(toPoints(letter, shown, px)).toEqual(box);
    }
  });
});
