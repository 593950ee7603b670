/**
 * What the first load needs of the notifications centre (the bell's words),
 * apart from the rest of its words (notification-words.ts, loaded with the panel and the page):
 * a module shared with a lazy chunk is bundled whole.
 */

/** The badge never grows past this (three characters fit the bell). */
export const BADGE_CAP = 99;

/** The badge's text: "3", "99+"; empty when nothing is unread (no badge). */
export function badgeText(unread: number): string {
  if (unread <= 0) return '';
  return unread > BADGE_CAP ? `${BADGE_CAP}+` : String(unread);
}

/** The bell's accessible name: "Notifications, 3 unread" (the badge's cap too: "99+ unread"). */
export function bellLabel(unread: number): string {
  const badge = badgeText(unread);
  return badge ? `Notifications, ${badge} unread` : 'Notifications';
}
