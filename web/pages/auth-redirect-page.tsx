import { useEffect } from 'react';
import { useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { afterLoginTarget } from '../app/navigation.js';
import { Splash } from '../app/app.js';

/** Landing point of an external sign-in: continue to the (same-origin) redirect target. */
export default function AuthRedirectPage() {
  const search = useSearch();
  useEffect(() => {
    navigate(afterLoginTarget(search), { replace: true });
  }, [search]);
  return <Splash />;
}
