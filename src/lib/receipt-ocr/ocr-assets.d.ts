/** Written by build/ocr-assets.ts: where the built app serves tesseract's engine and model. */
declare module 'virtual:ledgerline-ocr-assets' {
  const assets: {
    workerPath: string;
    cores: { simd: string; plain: string };
    /** The directory holding eng.traineddata.gz (no trailing slash). */
    langPath: string;
  };
  export default assets;
}
