import { useEffect, useState } from 'react';

/** Now, as ISO text, moving on every `everyMs` (countdowns). */
export function useNow(everyMs = 30_000): string {
  const [now, setNow] = useState(() => new Date().toISOString());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date().toISOString()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
