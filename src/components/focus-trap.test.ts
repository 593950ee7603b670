import { describe, expect, it } from 'vitest';
import { trapStep } from './focus-trap.ts';

describe('trapStep', () => {
  it('wraps Tab from the last tabbable to the first', () => {
    expect(trapStep(3, 2, false)).toBe(0);
  });

  it('wraps Shift+Tab from the first tabbable to the last', () => {
    expect(trapStep(3, 0, true)).toBe(2);
  });

  it('leaves moves between inner tabbables to the browser', () => {
    expect(trapStep(3, 0, false)).toBeNull();
    expect(trapStep(3, 1, false)).toBeNull();
    expect(trapStep(3, 2, true)).toBeNull();
  });

  it('brings focus that sits on the modal itself (or escaped it) back to an end', () => {
    expect(trapStep(3, -1, false)).toBe(0);
    expect(trapStep(3, -1, true)).toBe(2);
  });

  it('keeps focus on the modal when nothing inside can take it', () => {
    expect(trapStep(0, -1, false)).toBe(-1);
    expect(trapStep(0, -1, true)).toBe(-1);
  });

  it('wraps a single tabbable onto itself in both directions', () => {
    expect(trapStep(1, 0, false)).toBe(0);
    expect(trapStep(1, 0, true)).toBe(0);
  });
});
