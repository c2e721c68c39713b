/** Vite's `?url` imports: the built asset's URL under /assets (served from 'self'). */
declare module '*?url' {
  const url: string;
  export default url;
}
