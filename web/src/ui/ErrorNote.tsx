import { ReactNode } from 'react';

/** A refusal or failure in words, announced at once (an alert); nothing when there is none. */
export function ErrorNote({ message }: { message?: ReactNode }) {
  if (!message) return null;
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}
