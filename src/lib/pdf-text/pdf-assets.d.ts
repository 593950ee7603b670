/** Written by build/pdf-assets.ts: where the built app serves pdf.js's wasm image decoders. */
declare module 'virtual:ledgerline-pdf-assets' {
  const assets: {
    /** The directory holding jbig2.wasm, openjpeg.wasm and qcms_bg.wasm (with a trailing slash). */
    wasmUrl: string;
  };
  export default assets;
}
