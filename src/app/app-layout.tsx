import { Suspense, useDeferredValue, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { mobileUnsupportedReason } from '../../schema/platform.ts';
import { roleDisplayName } from '../../schema/roles.ts';
import { fullName } from '../../schema/entities/spend-user.ts';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';
import { SyncIndicator } from './sync-indicator.tsx';
import { ConflictHost } from './conflict-host.tsx';
import { MaintenanceBanner } from './maintenance-banner.tsx';
import { mirrorProgress } from './sync-text.ts';
import { EmailVerificationBanner, ReauthDialog, StepUpDialog } from '../features/identity/index.ts';
import { NotificationBell } from '../features/notifications/index.ts';
import { LazySurfacePart } from '../features/surfaces/index.ts';
import { HOME_PATH } from '../lib/redirect.ts';
import { visibleNav, type NavItem } from '../lib/routing.ts';
import { useBusinessSwitcher } from './business-switcher.tsx';
import { useSignOut } from '../lib/use-sign-out.ts';
import { Button } from '../components/button.tsx';
import { Menu, MenuItem } from '../components/menu.tsx';
import { mergeCommands, navCommands, type Command } from '../lib/commands.ts';
import { TOUCH_QUERY, useLayout, useMediaQuery } from '../lib/media-query.ts';
import { pageCommandsStore } from '../lib/page-commands.ts';
import { toggleTheme } from '../lib/theme-store.ts';
import { CommandPalette } from './command-palette.tsx';
import { ShortcutsDialog } from './shortcuts-dialog.tsx';
import { useGlobalShortcuts } from './use-global-shortcuts.ts';
import { formatCount } from '../lib/format.ts';
import { useMyPicture } from '../lib/profile-picture.ts';
import { useOcrWarmup } from './use-ocr-warmup.ts';
import { JobsTray } from '../features/jobs/jobs-tray.tsx';

/** The shell's own palette commands. */
const SHELL_COMMANDS: readonly Command[] = [
  { id: 'shell.theme', label: 'Toggle theme', group: 'Appearance', keywords: ['dark', 'light', 'mode', 'appearance'], run: toggleTheme },
];

/**
 * The signed-in shell: top bar (brand, the features' main navigation, sync, user), offline banner,
 * progress, and the keyboard layer: '?' shortcuts dialog, ⌘K/Ctrl+K command palette (commands:
 * one per nav entry, the features' `commands`, the shell's, the mounted page's).
 */
export function AppLayout({ nav: allNav, commands = [] }: { nav: readonly NavItem[]; commands?: readonly Command[] }) {
  const user = useAppState((s) => s.session?.user ?? null);
  const also = useAlsoVisible(allNav);
  const nav = useMemo(() => visibleNav(allNav, user, also), [allNav, user, also]);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const expired = useSessionExpiry();
  const signOut = useSignOut();
  const unsupported = useMobileUnsupported();
  const actingForFirm = useAppState((s) => Boolean(s.session?.external_firm_id));
  // Issue 33: the shell mounts from a store update (the router's, the session's), which React
  // always renders in one synchronous task, so the shell and the page with its list used to be one
  // 1–2 s task on a phone's CPU. The page's first render is deferred instead: the shell commits
  // first and the page follows in a render that yields to the browser every few milliseconds.
  // Only the shell's first mount waits; later navigations render the page as before.
  const pageMounted = useDeferredValue(true, false);
  useOcrWarmup();
  useDocumentTitle(nav);
  if (unsupported) {
    return (
      <main className="boot">
        <p className="notice notice-error" role="alert">
          {unsupported}
        </p>
        <Button onClick={() => void signOut(false)}>Sign out</Button>
      </main>
    );
  }
  return (
    <div className="app">
      <header className="topbar">
        <Link to={HOME_PATH} className="brand" aria-label="Ledgerline home">
          <img src="/favicon.svg" alt="" width={22} height={22} />
          <span>Ledgerline</span>
        </Link>
        <MainNav nav={nav} />
        <div className="spacer" />
        <SyncIndicator />
        <NotificationBell />
        <UserMenu />
      </header>
      {!online && (
        <div className="offline-banner" role="region" aria-label="Offline notice">
          You’re offline. Everything you do is saved on this device and syncs when you reconnect.
        </div>
      )}
      {actingForFirm && (
        <Suspense fallback={null}>
          <LazySurfacePart />
        </Suspense>
      )}
      <MaintenanceBanner />
      <EmailVerificationBanner />
      <MirrorProgress />
      <main className="app-main">
        {pageMounted && <Outlet />}
      </main>
      {expired ? <ReauthDialog onSignOut={() => void signOut(false)} /> : <ParkedStepUp />}
      <KeyboardLayer nav={nav} commands={commands} />
      <ConflictHost />
      <JobsTray />
    </div>
  );
}

/**
 * The entries `useAlsoVisible` shows now (e.g. Approvals to a person a chain names), as one
 * string so the memo above changes only when the answer does. The shell's nav is a module
 * constant (src/router.tsx), so these hooks run in the same order on every render.
 */
function useAlsoVisible(nav: readonly NavItem[]): string {
  const shown: string[] = [];
  for (const item of nav) {
    // A hook call per entry that has one: a fixed list in a fixed order (see above).
    if (item.useAlsoVisible?.()) shown.push(item.to);
  }
  return shown.join('\n');
}

/** The product's name, last in every document title. */
const PRODUCT = 'Ledgerline';

/**
 * The document title names the page as its nav entry and heading do ("Reimbursements ·
 * Ledgerline"), so the tab, the history and a screen reader's page announcement agree.
 */
function useDocumentTitle(nav: readonly NavItem[]) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const entry = nav.find((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));
  const title = entry ? `${entry.label} · ${PRODUCT}` : PRODUCT;
  useLayoutEffect(() => {
    document.title = title;
  }, [title]);
}

/** How many entries the phone's bottom bar shows before the rest move into its "More" menu. */
export const PHONE_NAV_ENTRIES = 4;

/** The entries a phone's bottom bar shows, and those its "More" menu lists (none when all fit: five or fewer). */
export function splitPhoneNav<T>(nav: readonly T[]): { bar: readonly T[]; more: readonly T[] } {
  return nav.length <= PHONE_NAV_ENTRIES + 1 ? { bar: nav, more: [] } : { bar: nav.slice(0, PHONE_NAV_ENTRIES), more: nav.slice(PHONE_NAV_ENTRIES) };
}

function NavEntry({ item }: { item: NavItem }) {
  return (
    <Link to={item.to} data-nav={item.to} activeProps={{ className: 'active', 'aria-current': 'page' }}>
      {item.short ? (
        <>
          <span className="nav-label-long">{item.label}</span>
          <span className="nav-label-short">{item.short}</span>
        </>
      ) : (
        item.label
      )}
      {item.badge && <item.badge />}
    </Link>
  );
}

/**
 * How many of the entries fit a bar `available` px wide, in order, when each takes `widths[i]` px
 * and `gap` px between: all of them when they fit, otherwise as many as fit beside a "More"
 * button `moreWidth` px wide (at least one, so the bar is never only "More").
 */
export function fitNavEntries(widths: readonly number[], available: number, gap: number, moreWidth: number): number {
  const total = widths.reduce((sum, w) => sum + w, 0) + gap * Math.max(0, widths.length - 1);
  if (total <= available) return widths.length;
  let used = moreWidth;
  let n = 0;
  for (const w of widths) {
    if (used + gap + w > available) break;
    used += gap + w;
    n++;
  }
  return Math.max(1, n);
}

/**
 * A desktop (not a phone): its bar shows the sections that fit and lists the rest under "More".
 * An admin's eighteen sections need about 1,600 px; below that the links used to scroll sideways
 * inside the bar with no scrollbar, so Settings and the last sections could not be reached with
 * a mouse.
 */
const DESKTOP_QUERY = '(min-width: 768px)';
/** The "More" button's width, for the fit (its label plus padding and caret). */
const MORE_WIDTH = 76;
/** The phone bar's "More" button: its label and padding, at least a touch target. */
const PHONE_MORE_WIDTH = 56;

/**
 * On a desktop, how many entries the bar shows (the rest go into "More", like the phone's
 * bar but decided by room, not by count). Widths are measured from the rendered links and kept, so
 * an entry moved into the menu still counts its own width when the window grows again; a new set
 * of entries is shown whole once to be measured.
 *
 * Measured in a ResizeObserver's callback, which the browser runs after its own layout and before
 * paint (the new fit is rendered there with flushSync, so the whole set never paints): reading the
 * widths there costs nothing. Issue 33: measuring in a layout effect after every render forced a
 * layout of the whole page inside React's commit (0.8 s of a 2.5 s task on a phone's CPU when the
 * transactions page opened), and again at each re-render of the shell during the first mirror.
 * The bar and each link are observed, so a link that changes width (a badge) is measured again.
 */
function useNavFit(nav: readonly NavItem[], enabled: boolean, moreWidth: number) {
  const ref = useRef<HTMLElement>(null);
  const widths = useRef(new Map<string, number>());
  const [fit, setFit] = useState(nav.length);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!enabled || !el) return;
    const measure = () => {
      for (const a of el.querySelectorAll<HTMLElement>(':scope > a[data-nav]')) widths.current.set(a.dataset.nav ?? '', a.getBoundingClientRect().width);
      if (nav.some((item) => !widths.current.has(item.to))) {
        flushSync(() => setFit(nav.length)); // show them all once to measure them
        return;
      }
      const gap = Number.parseFloat(getComputedStyle(el).columnGap) || 0;
      const next = fitNavEntries(nav.map((item) => widths.current.get(item.to) ?? 0), el.clientWidth, gap, moreWidth);
      flushSync(() => setFit(next));
    };
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const a of el.querySelectorAll<HTMLElement>(':scope > a[data-nav]')) observer.observe(a);
    return () => observer.disconnect();
    // `fit` changes which links are rendered: observe the new set (its first callback measures them).
  }, [nav, enabled, moreWidth, fit]);
  return { ref, fit: enabled ? fit : nav.length };
}

/**
 * The main navigation: on a desktop every entry when they fit, else as many as fit and a "More"
 * menu with the rest; on a phone a bottom bar of the first four and a "More" menu button
 * (APG menu: arrows, Escape back to the button) listing the rest, when more than five would have
 * to share 360 px. On a phone too, an entry whose whole label does not fit the bar moves into
 * "More" rather than being cut (each label is the page's own name, never a short form).
 */
function MainNav({ nav }: { nav: readonly NavItem[] }) {
  const phone = useLayout() === 'phone';
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const { ref, fit } = useNavFit(nav, phone || desktop, phone ? PHONE_MORE_WIDTH : MORE_WIDTH);
  const shown = phone ? Math.min(fit, splitPhoneNav(nav).bar.length) : fit;
  const bar = nav.slice(0, shown);
  const more = nav.slice(shown);
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const inMore = more.some((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));
  return (
    <nav aria-label="Main" className="main-nav" ref={ref}>
      {bar.map((item) => (
        <NavEntry key={item.to} item={item} />
      ))}
      {more.length > 0 && (
        <Menu label="More pages" trigger={<>More</>} triggerClassName={inMore ? 'nav-more active' : 'nav-more'}>
          {more.map((item) => (
            <MenuItem key={item.to} current={pathname === item.to} onSelect={() => void navigate({ to: item.to })}>
              {item.label}
              {item.badge && <item.badge />}
            </MenuItem>
          ))}
        </Menu>
      )}
    </nav>
  );
}

/** '?' and ⌘K/Ctrl+K, and the dialog each opens (one at a time). */
function KeyboardLayer({ nav, commands }: { nav: readonly NavItem[]; commands: readonly Command[] }) {
  const [open, setOpen] = useState<'help' | 'palette' | null>(null);
  // Like the other key hints, the shortcuts list is not offered on touch devices.
  const touch = useMediaQuery(TOUCH_QUERY);
  const page = useSyncExternalStore(pageCommandsStore.subscribe, () => pageCommandsStore.get().commands);
  const all = useMemo(() => mergeCommands(navCommands(nav), commands, SHELL_COMMANDS, page), [nav, commands, page]);
  useGlobalShortcuts({ help: touch ? undefined : () => setOpen('help'), palette: () => setOpen('palette') });
  if (open === 'help') return <ShortcutsDialog onClose={() => setOpen(null)} />;
  if (open === 'palette') return <CommandPalette commands={all} onClose={() => setOpen(null)} />;
  return null;
}

/** §1: inside the mobile wrapper some surfaces and roles are not supported. */
function useMobileUnsupported(): string | null {
  const platform = useAppState((s) => s.platform);
  const role = useAppState((s) => s.session?.user.role ?? null);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return mobileUnsupportedReason(platform, { pathname, role });
}

/** The outbox parked commands for want of a step-up scope: ask once, then they are retried. */
function ParkedStepUp() {
  const parked = useAppState((s) => s.status?.needsStepUp ?? 0);
  const [dismissedAt, setDismissedAt] = useState(0);
  // Nothing parked any more: the next parked command asks again.
  if (parked === 0 && dismissedAt !== 0) setDismissedAt(0);
  if (parked === 0 || parked <= dismissedAt) return null;
  // Done or cancelled, the prompt returns only when more commands are parked (the retried ones
  // leave needs_step_up a moment later, with the next status).
  return <StepUpDialog onDone={() => setDismissedAt(parked)} onCancel={() => setDismissedAt(parked)} />;
}

/** First-mirror progress: rows arrive in batches, and the table is usable after the first. */
function MirrorProgress() {
  const progress = useAppState((s) => mirrorProgress(s.status));
  if (!progress) return null;
  const label =
    progress.total > 0
      ? `Downloading transactions for offline use: ${formatCount(progress.loaded)} of ${formatCount(progress.total)}`
      : 'Preparing offline copy…';
  return (
    <div className="mirror-progress">
      <div
        role="progressbar"
        aria-label="Downloading transactions for offline use"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.percent}
        aria-valuetext={label}
        className="progress-track"
      >
        <div className="progress-fill" style={{ width: `${progress.percent}%` }} />
      </div>
      <span className="progress-label">{label}</span>
    </div>
  );
}

/** The account menu: who is signed in, the business switcher, sign-out. */
function UserMenu() {
  const session = useAppState((s) => s.session);
  const signOut = useSignOut();
  const switcher = useBusinessSwitcher();
  const [picking, setPicking] = useState(false);
  // Issue 32: the person's picture in place of their initials, once loaded (online).
  const picture = useMyPicture(useDataClient(), session?.user.id ?? null, useAppState((s) => s.online && (s.status?.online ?? true)));
  if (!session) return null;
  const { user, business } = session;
  const name = fullName(user);
  return (
    <>
      <Menu
        label="Account"
        trigger={
          <>
            <span className="sr-only">Account: </span>
            {picture ? <img className="avatar" src={picture} alt="" /> : (
              <span className="avatar" aria-hidden="true">
                {(user.first_name[0] ?? '') + (user.last_name[0] ?? '')}
              </span>
            )}
            <span className="user-name">{name}</span>
          </>
        }
        header={
          <div className="menu-header">
            <div className="menu-name">{name}</div>
            <div className="muted">{user.email}</div>
            <div className="muted">
              {roleDisplayName(user.role, user.is_manager)} · {business.name}
            </div>
          </div>
        }
      >
        {switcher.items}
        {session.choices?.some((c) => c.target.kind !== 'BUSINESS') && <MenuItem onSelect={() => setPicking(true)}>Switch account…</MenuItem>}
        <MenuItem onSelect={() => void signOut(false)}>Sign out</MenuItem>
        <MenuItem onSelect={() => void signOut(true)}>Sign out of all devices</MenuItem>
      </Menu>
      {switcher.dialog}
      {picking && (
        <Suspense fallback={null}>
          <LazySurfacePart onClose={() => setPicking(false)} />
        </Suspense>
      )}
    </>
  );
}

/**
 * The worker reports a refused token (401, expired or revoked, online or on an offline start)
 * as phase signed_out while the app still holds a session: the outbox is paused and the user
 * signs in again in place (same user, mirror and outbox kept), then syncing resumes.
 */
function useSessionExpiry(): boolean {
  return useAppState((s) => s.session !== null && s.status?.phase === 'signed_out');
}
