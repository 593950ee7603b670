import { describe, expect, it } from 'vitest';
import { renderSignInPage } from './sign-in-prerender.tsx';

describe('renderSignInPage (the HTML copy of /sign-in, build/prerender.ts)', () => {
  it('is the real sign-in form as a signed-out visitor first sees it', async () => {
    const html = await renderSignInPage();
    // React hoists a preload of the brand's image in front of the page.
    expect(html).toMatch(/^(<link rel="preload" as="image" href="\/favicon.svg"\/>)?<main class="sign-in"><form class="sign-in-card"/);
    expect(html).toContain('<h1>Sign in</h1>');
    for (const name of ['email', 'password']) expect(html).toMatch(new RegExp(`<input[^>]*name="${name}"`));
    expect(html).toContain('<label class="field"><span class="field-label">Email</span><input type="email"');
    // The copy's email field takes the focus as the app's does (autoFocus).
    expect(html).toMatch(/<input type="email"[^>]*autofocus=""/);
    // Nothing typed yet: the submit button is off, so Enter in the copy submits nothing before the app runs.
    expect(html.match(/<button[^>]*type="submit"[^>]*>/)?.[0]).toContain('disabled=""');
    expect(html).toContain('href="/sign-up"');
    expect(html).not.toMatch(/You are offline|role="alert"/);
  });

  it('holds nothing the CSP refuses', async () => {
    const html = await renderSignInPage();
    expect(html).not.toMatch(/<script\b/);
    expect(html).not.toMatch(/\sstyle=/);
  });
});
