import type { FormEvent, ReactNode } from 'react';

/** The centred card of the signed-out pages (sign-in, MFA step, sign-up). */
export function AuthCard({
  title,
  onSubmit,
  children,
}: {
  title: string;
  onSubmit?: (e: FormEvent) => void | Promise<void>;
  children: ReactNode;
}) {
  const body = (
    <>
      <div className="brand brand-lg">
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span>Ledgerline</span>
      </div>
      <h1>{title}</h1>
      {children}
    </>
  );
  return (
    <main className="sign-in">
      {onSubmit ? (
        <form className="sign-in-card" onSubmit={(e) => void onSubmit(e)} noValidate>
          {body}
        </form>
      ) : (
        <div className="sign-in-card">{body}</div>
      )}
    </main>
  );
}
