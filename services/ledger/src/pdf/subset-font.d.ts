declare module 'subset-font' {
  /** Subsets an SFNT font to the glyphs of `text` with HarfBuzz (layout closure kept). */
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: { targetFormat?: 'sfnt' | 'woff' | 'woff2'; preserveNameIds?: number[] },
  ): Promise<Buffer>;
}
