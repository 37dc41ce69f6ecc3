import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportError } from './error-reporter.js';
import { t } from '../i18n/index.js';

interface Props {
  children: ReactNode;
  /** A new value clears a caught error: the screen is drawn again at its new address. */
  resetKey?: string;
}

/** Keeps a broken screen from blanking the whole console, and logs what broke. */
export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportError(error, info.componentStack ?? undefined);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="m-6 rounded-md border border-red-200 bg-red-50 p-4 text-red-800">
        <p className="font-semibold">{t('error.boundaryTitle')}</p>
        <p className="mt-1 text-sm break-all">{this.state.error.message}</p>
        <button type="button" className="btn mt-3" onClick={() => this.setState({ error: null })}>
          {t('error.retry')}
        </button>
      </div>
    );
  }
}
