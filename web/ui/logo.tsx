import { useState } from 'react';
import { fileUrl } from '../lib/file-url.js';

/** The default icon stands in when there is no logo or the image fails to load. */
export function DefaultLogo({ className = '' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" data-testid="default-logo">
      <rect width="32" height="32" rx="7" fill="var(--color-primary, #409EFF)" />
      <path d="M8 10h16v10H14l-5 4v-4H8z" fill="#fff" />
    </svg>
  );
}

export function Logo({
  path,
  alt,
  className = '',
}: {
  path: string | null | undefined;
  alt: string;
  className?: string;
}) {
  const src = fileUrl(path);
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) return <DefaultLogo className={className} />;
  return <img src={src} alt={alt} className={`object-contain ${className}`} onError={() => setFailed(src)} />;
}
