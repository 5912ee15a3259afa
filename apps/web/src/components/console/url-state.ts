import { useCallback, useState } from 'react';
import { useLocation, useNavigate, useSearchParams, type To } from 'react-router';

export type ParamPatch = Readonly<Record<string, string | number | null | undefined>>;

/**
 * A console page's filters live in the URL's search params, so Back and Forward step through
 * them and a copied link opens the same list. `update` sets some and removes those given as
 * empty (and all the others with `only`); every change is a history entry unless `replace`.
 * Never for a search keyword: it may be an ID number, and URLs end up in history, logs and
 * Referer headers.
 */
export function useUrlParams(): [URLSearchParams, (patch: ParamPatch, options?: { replace?: boolean; only?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const { state } = useLocation() as { state: unknown };
  const update = useCallback(
    (patch: ParamPatch, options: { replace?: boolean; only?: boolean } = {}) => {
      const next = new URLSearchParams(options.only ? undefined : params);
      for (const [key, value] of Object.entries(patch)) {
        if (value === null || value === undefined || value === '') next.delete(key);
        else next.set(key, String(value));
      }
      // The same address again would be a second, identical history entry: Back would seem stuck.
      if (next.toString() === params.toString()) return;
      // Replacing keeps the entry's state (a drawer still knows the list opened it).
      setParams(next, options.replace ? { replace: true, state: state } : {});
    },
    [params, setParams, state],
  );
  return [params, update];
}

/** A positive whole number from the search params, or undefined. */
export function intParam(params: URLSearchParams, key: string): number | undefined {
  const raw = params.get(key);
  if (raw === null || !/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  return Number(raw);
}

/** The page number of a paged list (1 when absent or malformed). */
export const pageParam = (params: URLSearchParams) => intParam(params, 'page') ?? 1;

/** A console table of one page of a list query, its page kept in the address. */
export function urlTable<T>(
  list: { data?: { list: T[]; total: number } | undefined; isFetching: boolean },
  page: number,
  pageSize: number,
  update: (patch: ParamPatch) => void,
) {
  return {
    size: 'small' as const,
    loading: list.isFetching,
    dataSource: list.data?.list,
    pagination: urlPagination(page, pageSize, list.data?.total ?? 0, update),
  };
}

/** A table's pagination kept in the address (`?page=`, left out for the first page). */
export function urlPagination(current: number, pageSize: number, total: number, update: (patch: ParamPatch) => void) {
  return { current, pageSize, total, onChange: (p: number) => update({ page: p === 1 ? null : p }) };
}

/** One of the allowed values of a search param, or the fallback. */
export function enumParam<T extends string>(params: URLSearchParams, key: string, allowed: readonly T[], fallback: T): T {
  const raw = params.get(key);
  return allowed.find((v) => v === raw) ?? fallback;
}

/**
 * History state of a drawer or editor opened from its list: closing it then goes Back, so the
 * list returns as it was (filters, page, scroll) and Forward reopens the record.
 */
export const OPENED_FROM_LIST = { openedFromList: true } as const;

/**
 * Closes a drawer route: Back when the list opened it, else (a deep link, a reload) to the list,
 * replacing the drawer's entry.
 */
export function useCloseDrawer(list: To): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  const fromList = (location.state as { openedFromList?: boolean } | null)?.openedFromList === true;
  return useCallback(() => {
    if (fromList) void navigate(-1);
    else void navigate(list, { replace: true });
  }, [fromList, navigate, list]);
}

/**
 * The last value a drawer showed: when its route closes, the record is gone from the URL while
 * the drawer still animates out, and it should keep showing what it showed.
 */
export function useLastDefined<T>(value: T | undefined): T | undefined {
  const [last, setLast] = useState(value);
  if (value !== undefined && value !== last) setLast(value);
  return value ?? last;
}
