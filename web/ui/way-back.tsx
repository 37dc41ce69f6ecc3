import { Link } from 'wouter';
import { useT } from '../i18n/index.js';

/** The two ways out of a page that cannot show what was asked: back where the user came from, or home. */
export function WayBack() {
  const t = useT();
  return (
    <div className="mt-4 flex gap-3">
      <button type="button" className="btn" onClick={() => history.back()}>
        {t('error.back')}
      </button>
      <Link href="/dashboard" className="btn btn-primary">
        {t('error.backHome')}
      </Link>
    </div>
  );
}
