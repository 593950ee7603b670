/**
 * The open layers (modals, drawers, menus), innermost last. Only the top layer answers Escape
 * and, when modal, keeps Tab inside: a menu opened over a dialog closes first, then the dialog.
 * Kept pure (a list of ids) so the ordering rules are tested without a DOM.
 */
export type LayerStack = readonly number[];

export const pushLayer = (stack: LayerStack, id: number): LayerStack => [...stack.filter((x) => x !== id), id];

export const popLayer = (stack: LayerStack, id: number): LayerStack => stack.filter((x) => x !== id);

export const isTopLayer = (stack: LayerStack, id: number): boolean => stack.length > 0 && stack[stack.length - 1] === id;

/** Whether any open layer is modal (page shortcuts stay quiet under a dialog). */
export const hasModalLayer = (stack: LayerStack, modal: ReadonlySet<number>): boolean => stack.some((id) => modal.has(id));
