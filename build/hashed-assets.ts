import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/** A file copied from node_modules into the build as it is. */
export interface AssetFile {
  name: string;
  source: string;
}

/** The directory's name: `assets/<prefix>-<hash of every file>`, so new files are a new URL. */
export function hashedAssetDir(prefix: string, files: readonly AssetFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.name).update(readFileSync(f.source));
  return `assets/${prefix}-${hash.digest('hex').slice(0, 10)}`;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = { js: 'text/javascript', wasm: 'application/wasm' };

/**
 * A vite plugin that emits `files` (read from node_modules when the config resolves) into one
 * content-hashed directory `assets/<prefix>-<hash>/` and answers a small virtual module `virtualId`
 * whose default export is `manifest(base)` (`base` = `/<dir>/`): the app imports that module only
 * where it needs the files, so the first load does not grow. `vite` dev serves the same URLs
 * straight from node_modules. Used by the OCR engine (ocr-assets.ts) and pdf.js's decoders
 * (pdf-assets.ts).
 */
export function hashedAssets(opts: {
  name: string;
  prefix: string;
  virtualId: string;
  files(root: string): AssetFile[];
  manifest(base: string): unknown;
}): Plugin {
  const resolved = `\0${opts.virtualId}`;
  let files: AssetFile[] = [];
  let dir = '';
  return {
    name: opts.name,
    configResolved(config) {
      files = opts.files(config.root);
      dir = hashedAssetDir(opts.prefix, files);
    },
    resolveId(id) {
      return id === opts.virtualId ? resolved : null;
    },
    load(id) {
      return id === resolved ? `export default ${JSON.stringify(opts.manifest(`/${dir}/`))};` : null;
    },
    generateBundle() {
      for (const f of files) this.emitFile({ type: 'asset', fileName: `${dir}/${f.name}`, source: readFileSync(f.source) });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        const file = path.startsWith(`/${dir}/`) ? files.find((f) => path === `/${dir}/${f.name}`) : undefined;
        if (!file) return next();
        res.setHeader('content-type', CONTENT_TYPES[file.name.split('.').pop() ?? ''] ?? 'application/octet-stream');
        res.end(readFileSync(file.source));
      });
    },
  };
}
