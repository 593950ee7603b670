import type { ErrorV2 } from '../../schema/errors.ts';
import type { SpendUser } from '../../schema/entities/spend-user.ts';
import type { Business } from '../../schema/entities/business.ts';
import type { WebConfig } from '../../schema/web-config.ts';
import type { FeatureFlags } from '../../schema/feature-flags.ts';
import type { Platform } from '../../schema/platform.ts';
import type { Role } from '../../schema/roles.ts';
import type { Authenticator, AuthenticationResponse, RegistrationResponse, SecondFactor } from '../../schema/webauthn.ts';
import type { OtherSurfaceClaim } from '../../schema/api/scopes.ts';
import type { ScopeChoice, ScopeTarget } from '../../schema/entities/scope-choice.ts';
import type { ActionResult } from './views.ts';

/**
 * The main app's session (issue 31: surface BUSINESS): a spend user in a business. The only
 * session that opens the mirror (one per business and user).
 */
export interface BusinessSessionInfo {
  surface: { kind: 'BUSINESS' };
  user: SpendUser;
  business: Business;
  scopes: string[];
  /** The user has a second factor (MFA required or an authenticator enrolled): step-up may use a code. */
  mfa_enabled?: boolean;
  /** Every business the identity has a live spend user in (hidden ones included: filter with switcherUsers). */
  businesses?: BusinessChoice[];
  /**
   * The token's `external_firm_id`: a firm user acting in this client business (its hidden spend
   * user). §2 telemetry identifies with it; the shell shows "Acting for <firm> · Back to console".
   */
  external_firm_id?: string | null;
  /** The identity's scopes as last read (identity.scopes.list), kept for offline starts. */
  choices?: ScopeChoice[];
}

/**
 * A session on another surface (advisor console, vendor portal, financing application, firm
 * application): no spend user, no business, no mirror. Built from the token's claims and the
 * identity's scope list.
 */
export interface SurfaceSessionInfo {
  surface: OtherSurfaceClaim;
  /** The identity (the token's `sub`). */
  identity_id: string;
  /** The identity's email when the sign-in knew it (password, code), else null. */
  email: string | null;
  /** The scope's name as the picker lists it (firm, vendor, §3 application label); a name by kind until read. */
  label: string;
  scopes: string[];
  mfa_enabled?: boolean;
  /** The identity's scopes as last read (identity.scopes.list), kept for offline starts. */
  choices?: ScopeChoice[];
}

/** Who is signed in, on which surface: only the BUSINESS session opens the mirror. */
export type SessionInfo = BusinessSessionInfo | SurfaceSessionInfo;

/** The main app's session (a union narrows on a nested `kind` only through a guard). */
export function isBusinessSession(session: SessionInfo): session is BusinessSessionInfo {
  return session.surface.kind === 'BUSINESS';
}

/** One business of the identity, for the business switcher. */
export interface BusinessChoice {
  id: string;
  name: string;
  role: Role;
  user_id: string;
}

/**
 * A business switch. `left_behind`: the previous business still has unsent edits in its own
 * outbox on this device; they are delivered the next time that business is active.
 */
export type SwitchBusinessResult =
  | { ok: true; session: SessionInfo; left_behind: { business_name: string; changes: number } | null }
  | { ok: false; error: ErrorV2['error_v2']; mfa_required?: true };

/** A scope switch (issue 31): as a business switch, to any scope of the identity. */
export type SwitchScopeResult = SwitchBusinessResult;

/**
 * The identity's scopes for the picker: read online (and kept with the session); `offline`: the
 * server could not be asked, so this is the last list kept (or, never read, the session's businesses).
 */
export type ScopeChoicesResult =
  | { ok: true; choices: ScopeChoice[]; offline: boolean }
  | { ok: false; error: ErrorV2['error_v2'] };

/**
 * `mfa_required: true` on a failure: the password was right but the sign-in waits for the
 * second factor; call `verifyMfa(code)` next (the worker holds the half-scoped token).
 */
export type SignInResult =
  | { ok: true; session: SessionInfo; mfa_required: boolean }
  | { ok: false; error: ErrorV2['error_v2']; mfa_required?: true };

export interface SignUpInput {
  first_name: string;
  last_name: string;
  business_name: string;
  email: string;
  password: string;
}

/** A passkey's answer to request options (navigator.credentials.get, as @simplewebauthn/browser shapes it). */
export type PasskeyAssertion = AuthenticationResponse;

/** Re-enter the password, or an authenticator code or a passkey when the user has MFA. */
export type StepUpInput = { password: string } | { mfa_code: string } | { webauthn: PasskeyAssertion };

/**
 * Ceremony options for navigator.credentials (PublicKeyCredentialCreationOptionsJSON /
 * PublicKeyCredentialRequestOptionsJSON): the UI hands them to @simplewebauthn/browser as is.
 */
export type PasskeyOptions = { challenge: string } & Record<string, unknown>;
export type PasskeyOptionsResult = { ok: true; options: PasskeyOptions } | Extract<ActionResult, { ok: false }>;
export type { Authenticator, RegistrationResponse as PasskeyRegistration, SecondFactor };

export interface TotpSetup {
  authenticator_id: string;
  secret: string;
  otpauth_uri: string;
}

/**
 * A sign-in waiting for its second factor: `totp_enrolled` false means the person has no
 * authenticator yet (MFA enforced by the business or identity), so the first enrolment comes
 * before verify-mfa. `email` is where send-email-otp mails the enrolment's confirmation code.
 */
export type PendingMfaStatus =
  | { ok: true; totp_enrolled: boolean; factors: SecondFactor[]; email: string | null }
  | { ok: false; error: ErrorV2['error_v2'] };

/** A one-time code mailed to the identity's own mailbox, valid until `expires_at` (ISO). */
export type EmailCodeResult = { ok: true; expires_at: string } | { ok: false; error: ErrorV2['error_v2'] };

/** A telemetry event as the UI's telemetry queue batches it (path already sanitised). */
export interface TelemetryEventInput {
  name: string;
  path: string;
  props: Record<string, unknown>;
  ts: string;
}

export interface ErrorReportInput {
  message: string;
  url: string;
  stack?: string;
  context: Record<string, unknown>;
}

/** Session: who is signed in, into which business (handlers/session.ts). */
export interface SessionApi {
  /** Opens the mirror for the stored session (if any); resolves when the first page is readable. */
  init(opts: { baseUrl: string; platform?: Platform }): Promise<SessionInfo | null>;
  /** `businessId`: the tab's business (§3), signed into when the identity belongs to it. */
  signIn(email: string, password: string, businessId?: string | null): Promise<SignInResult>;
  signOut(): Promise<void>;
  session(): Promise<SessionInfo | null>;
  /**
   * Moves the session to another of the identity's businesses: a new token on the same session,
   * that business's own mirror opened and synced; the previous mirror and outbox stay on disk.
   * `mfa_required`: that business asks for MFA first; `verifyMfa(code)` completes the switch.
   */
  switchBusiness(businessId: string): Promise<SwitchBusinessResult>;
  /**
   * Issue 31: moves the session to another of the identity's scopes (a business, the advisor
   * console, a vendor portal, an application): PATCH /users/current/scope, then as a sign-in: a
   * BUSINESS token opens that business's mirror, any other closes the open one (kept on disk with
   * its outbox). `mfa_required`: `verifyMfa(code)` completes it.
   */
  switchScope(target: ScopeTarget): Promise<SwitchScopeResult>;
  /** The identity's scopes for the picker (identity.scopes.list), kept with the session for offline starts. */
  scopeChoices(): Promise<ScopeChoicesResult>;
  /** Creates the identity and its business, then signs in. */
  signUp(input: SignUpInput): Promise<SignInResult>;
  /**
   * Single sign-on's last step (issue 14): trades the one-time code of /sso/complete for the
   * session, as a password sign-in (`mfa_required`: `verifyMfa` next). `redirect`: where the
   * person was heading when the sign-in started (the page checks it with safeRedirect).
   */
  ssoComplete(code: string): Promise<SignInResult & { redirect: string | null }>;
  /** Second step of a sign-in that answered mfa_required: a 6-digit code or a passkey assertion. */
  verifyMfa(proof: string | { webauthn: PasskeyAssertion }): Promise<SignInResult>;
  /**
   * The session expired (401): sign the SAME user in again in place; the mirror and the outbox
   * stay and the sync resumes. A different account's credentials are refused.
   */
  reauthenticate(password: string): Promise<SignInResult>;
  /** Revokes every session of the identity, then signs this device out. */
  signOutAllSessions(): Promise<ActionResult>;
  /** Accepts an invite (`/invites/:token`) with a password, then signs in like `signIn` (MFA included). */
  acceptInvite(token: string, password: string): Promise<SignInResult>;
  /** Signs in with a mailed sign-in link's token (`/passwordless?token=`), MFA included. */
  signInWithLink(token: string): Promise<SignInResult>;
}

/** Identity: account settings, second factors, config, flags, telemetry (handlers/identity.ts). */
export interface IdentityApi {
  /** §3 web config (defaults when the server cannot be reached). */
  webConfig(): Promise<WebConfig>;
  /** Earns `sensitive` for the step-up token's lifetime, then retries commands parked on it. */
  stepUp(input: StepUpInput): Promise<ActionResult>;
  changePassword(newPassword: string): Promise<ActionResult>;
  /** From Settings, or, while a sign-in waits for MFA, with its half-scoped token (first enrolment). */
  startTotp(): Promise<{ ok: true; setup: TotpSetup } | Extract<ActionResult, { ok: false }>>;
  /**
   * Activates the authenticator with its first code. `emailCode` (from `sendEmailCode`) is needed
   * for a first enrolment during a sign-in waiting for MFA; then `verifyMfa` with the NEXT code
   * finishes the sign-in (a code is never accepted twice).
   */
  verifyTotp(authenticatorId: string, code: string, emailCode?: string): Promise<ActionResult>;
  /** The pending sign-in's MFA state (check-mfa): is an authenticator enrolled yet? */
  pendingMfaStatus(): Promise<PendingMfaStatus>;
  /** Mails a one-time code (send-email-otp); during a pending sign-in, with its token. */
  sendEmailCode(): Promise<EmailCodeResult>;
  /** Settings → Security: the authenticator app and the passkeys (online only). */
  listAuthenticators(): Promise<{ ok: true; authenticators: Authenticator[] } | Extract<ActionResult, { ok: false }>>;
  /**
   * Creation options for a new passkey. Needs a token from the last 5 minutes or a step-up
   * (`step_up: 'sensitive'` otherwise); during a pending sign-in, its token (first enrolment).
   */
  passkeyRegistrationOptions(): Promise<PasskeyOptionsResult>;
  /** Registers the browser's answer under `name`; `emailCode` as verifyTotp's for a first enrolment. */
  registerPasskey(response: RegistrationResponse, name: string, emailCode?: string): Promise<
    { ok: true; authenticator: Authenticator } | Extract<ActionResult, { ok: false }>
  >;
  renamePasskey(id: string, name: string): Promise<ActionResult>;
  /** Sensitive: answers `step_up: 'sensitive'` until the person has confirmed it's them. */
  deletePasskey(id: string): Promise<ActionResult>;
  /** Sensitive, as deletePasskey. */
  deleteTotp(id: string): Promise<ActionResult>;
  /** Request options for the person's passkeys: for the pending sign-in's MFA step, or a step-up. */
  passkeyAuthenticationOptions(): Promise<PasskeyOptionsResult>;
  /** Feature flags of the session's business, typed; cached in the mirror for offline use. */
  flags(): Promise<FeatureFlags>;
  sendTelemetry(events: TelemetryEventInput[]): Promise<void>;
  sendErrorReport(report: ErrorReportInput): Promise<void>;
}
