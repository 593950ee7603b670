import { describe, expect, it } from 'vitest';
import { appScripts, inertButtons, paintFirstLoader, prerenderInto } from './prerender.ts';

const INDEX = [
  '<!doctype html><html lang="en"><head><title>Ledgerline</title>',
  '<script type="module" crossorigin src="/assets/index-Ab12.js"></script>',
  '<link rel="modulepreload" crossorigin href="/assets/react-Cd34.js">',
  '<link rel="stylesheet" crossorigin href="/assets/index-Ef56.css">',
  '</head><body><div id="root"></div><noscript>Ledgerline needs JavaScript to run.</noscript></body></html>',
].join('');
const LOADER = '/assets/paint-first-Gh78.js';
const FORM = '<main class="sign-in"><form class="sign-in-card"><label for="pre-r0">Email</label><input id="pre-r0" name="email"/></form></main>';

describe('prerenderInto', () => {
  it('puts the markup in #prerendered just before the empty #root', () => {
    const html = prerenderInto(INDEX, FORM, LOADER);
    expect(html).toContain(`<body><div id="prerendered">${FORM}</div><div id="root"></div><noscript>`);
    expect(html.match(/id="prerendered"/g)).toHaveLength(1);
  });

  it('starts the app through the paint-first loader: no other script, no preload before the paint', () => {
    const html = prerenderInto(INDEX, FORM, LOADER);
    expect(html.match(/<script\b[^>]*>/g)).toEqual([`<script type="module" crossorigin src="${LOADER}">`]);
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-Ef56.css">');
  });

  it('has a loader that preloads the chunks, evaluates one a task and the entry last, once, after two frames (or 2 s)', () => {
    const { entry, preloads } = appScripts(INDEX);
    expect([entry, preloads]).toEqual(['/assets/index-Ab12.js', ['/assets/react-Cd34.js']]);
    const loader = paintFirstLoader(entry, preloads);
    expect(loader).toContain('const preloads = ["/assets/react-Cd34.js"];');
    expect(loader).toContain("link.rel = 'modulepreload';");
    expect(loader).toContain('await import(href);\n    await nextTask();');
    expect(loader).toContain('await import("/assets/index-Ab12.js");');
    expect(loader).toContain('requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => void start())));');
    expect(loader).toContain('setTimeout(() => void start(), 2000);');
    expect(loader).toMatch(/if \(started\) return;\n {2}started = true;/);
  });

  it.each([
    ['an inline script', `${FORM}<script>alert(1)</script>`, /script/],
    ['a style attribute', '<main class="sign-in" style="color:red"></main>', /style attribute/],
  ])('refuses markup with %s (the CSP would refuse it in the browser)', (_what, markup, error) => {
    expect(() => prerenderInto(INDEX, markup, LOADER)).toThrow(error);
  });

  it("disables the copy's buttons (a tap before the app would be lost or submit natively), not its fields or links", () => {
    const markup = `<form><input name="email"/><button type="submit" class="btn" disabled="">Sign in</button><button type="button" class="btn ghost">Email me a link</button></form><a href="/sign-up">Create</a>`;
    expect(inertButtons(markup)).toBe(
      `<form><input name="email"/><button type="submit" class="btn" disabled="">Sign in</button><button disabled="" type="button" class="btn ghost">Email me a link</button></form><a href="/sign-up">Create</a>`,
    );
    expect(prerenderInto(INDEX, markup, LOADER)).toContain('<button disabled="" type="button" class="btn ghost">Email me a link</button>');
    expect(prerenderInto(INDEX, markup, LOADER).match(/<button\b[^>]*>/g)?.every((tag) => tag.includes('disabled'))).toBe(true);
  });

  it('refuses an index.html without the empty #root', () => {
    expect(() => prerenderInto(INDEX.replace('<div id="root"></div>', '<div id="app"></div>'), FORM, LOADER)).toThrow(/no <div id="root">/);
  });
});
