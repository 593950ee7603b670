import type { Remote } from 'comlink';
import type { DataApi } from '../../workers/api.ts';

/**
 * Types the UI sees from the data worker, derived from its one API so src/ never imports
 * sync/ (lint's import direction) and can never drift from what the worker really sends.
 */
/** `run` keeps its generic signature (Comlink's mapping would widen name and input to unions). */
export type DataClient = Omit<Remote<DataApi>, 'run'> & Pick<DataApi, 'run'>;
export type SyncStatus = Awaited<ReturnType<DataApi['status']>>;
export type OutboxEntry = Awaited<ReturnType<DataApi['outbox']>>[number];
export type {
  SessionInfo,
  BusinessSessionInfo,
  SurfaceSessionInfo,
  ScopeChoicesResult,
  SwitchScopeResult,
  BusinessChoice,
  SwitchBusinessResult,
  TransactionView,
  QueryResult,
  ReferenceData,
  CommandResult,
  SignInResult,
  TransactionQuery,
  ActionResult,
  StepUpInput,
  SignUpInput,
  TotpSetup,
  Authenticator,
  PasskeyAssertion,
  PasskeyOptions,
  PasskeyRegistration,
  SecondFactor,
} from '../../workers/api.ts';
export type { VendorResult, VendorFailure, RevealedBankAccount, BulkRowResult } from '../../workers/api.ts';
export type { TeamFailure, TeamUserResult, InviteUserInput, UpdateUserInput } from '../../workers/api.ts';
export type { OrgFailure, OrgUnit, OrgUnitKind, OrgUnitResult, BusinessEntityResult, BusinessEntityInput } from '../../workers/api.ts';
export type { SupportAccessFailure, SupportAccessResult, EmailVerificationResult } from '../../workers/api.ts';
