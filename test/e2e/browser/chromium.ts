/**
 * Debian's Chromium through playwright-core, headless, the same way for every browser test: no
 * sandbox (containers), no GPU, nothing fetched in the background. `media` adds the fake camera and
 * microphone (Chromium's test pattern and beep, or the given Y4M / WAV files) and answers the
 * permission prompt.
 */
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(
  dir: string,
  opts: {
    viewport?: { width: number; height: number };
    acceptDownloads?: boolean;
    media?: { y4m?: string; wav?: string };
    /** The browser's language (navigator.language(s) and Accept-Language), e.g. de-DE. */
    locale?: string;
  } = {},
): Promise<BrowserContext> {
  const media = opts.media
    ? [
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        '--autoplay-policy=no-user-gesture-required',
        ...(opts.media.y4m ? [`--use-file-for-fake-video-capture=${opts.media.y4m}`] : []),
        ...(opts.media.wav ? [`--use-file-for-fake-audio-capture=${opts.media.wav}%noloop`] : []),
      ]
    : [];
  return chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    ...(opts.viewport ? { viewport: opts.viewport } : {}),
    ...(opts.acceptDownloads ? { acceptDownloads: true } : {}),
    ...(opts.locale ? { locale: opts.locale } : {}),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      ...media,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
