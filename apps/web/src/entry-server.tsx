/**
 * The server render of the candidate site's public pages, built by `vite build --ssr` into
 * dist/.ssr/entry-server.js and loaded by the server (apps/server/src/plugins/web.ts), which
 * never imports this source. The server hands it a way to read its public API; this module
 * decides what each page needs, renders it with React's prerender (the whole page, no streaming)
 * and gives back the HTML, antd's styles for it and the data the browser hydrates from.
 */
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { type Captcha, type MenuItem, type SystemSetting } from '@zhikaoyun/shared';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { ServerQueryClient } from './lib/query-scope';
import { createQueryClient } from './lib/query-client';
import { metaFor, renderAt } from './app/route-table';
import { AppRoutes, pagePathFor, preloadPage } from './app/router';
import { setDisplayTimeZone } from './lib/office-time-zone';
import { ServerRendered } from './lib/hydrated';
import { NOTICE_PAGE_SIZE } from './features/content/notices/api';
import { examKeys, noticeKeys, positionKeys, scoreKeys } from './lib/api/keys';
import { POSITION_PAGE_SIZE } from './lib/api/positions';
import { seedPublicQueries } from './lib/public-query';
import { setSsrData, SSR_DATA_ID, type SsrData } from './lib/ssr-data';

/** Reads one of the server's public GET calls for the office of the page; undefined when it failed. */
export type ReadApi = (path: string, query?: Record<string, string | number>) => Promise<unknown>;

export interface RenderedPage {
  /** The markup for `<div id="root">`. */
  html: string;
  /** antd's `<style>` tags for what the page shows. */
  styles: string;
  /** `<script type="application/json" id="ssr-data">…</script>`. */
  dataScript: string;
  title: string;
  /** The office the page was rendered for (the settings' officeId), for invalidation. */
  officeId: number | null;
}

/**
 * Paths rendered on the server (the route table's `render`): the public pages, the notices anyone
 * may open, and the shells of the personal pages (the same HTML for everyone: no session reaches
 * this render).
 */
export function isRenderedPath(pathname: string): boolean {
  return renderAt(pathname) !== 'client';
}

/** Paths whose HTML carries a fresh captcha (filled in per request by the server). */
export function needsCaptcha(pathname: string): boolean {
  return pathname === '/login' || pathname === '/register';
}

/**
 * What the server puts in place of a real captcha while rendering; it swaps in a fresh one per
 * request. Both are plain ASCII without characters HTML or JSON would escape.
 */
export const CAPTCHA_SLOT: Captcha = {
  captchaId: 'zk-captcha-id-slot',
  image: 'data:image/gif;base64,ZKCAPTCHASLOT',
  // A captcha lives five minutes (the server's getCode); only its id and image are swapped in.
  expiresIn: 300,
};

/** The TanStack Query entries a page reads on its first render, fetched before rendering. */
async function pageQueries(pathname: string, search: URLSearchParams, read: ReadApi): Promise<SsrData['queries']> {
  const queries: SsrData['queries'] = [];
  const add = async (key: readonly unknown[], path: string, query?: Record<string, string | number>) => {
    const data = await read(path, query);
    if (data !== undefined) queries.push([key, data]);
    return data;
  };
  if (pathname === '/') {
    // The guide page's current exam card (its name and windows; the countdown is drawn in the browser).
    await add(examKeys.current(), '/api/getCurrentExam');
  }
  if (pathname === '/exam-list') {
    // The office's published exams are public; the candidate's own state in each card is not,
    // and is filled in by the browser.
    await add(examKeys.list(), '/api/getExamList');
  }
  if (pathname === '/notice-list') {
    const page = Math.max(1, Number(search.get('page')) || 1);
    const examId = Number(search.get('examId'));
    // One exam's notices (本次考试公告) under their own key, as the page reads them.
    if (Number.isInteger(examId) && examId > 0)
      await add(noticeKeys.page(page, examId), '/api/getNoticeList', { page, pageSize: NOTICE_PAGE_SIZE, examId });
    else await add(noticeKeys.page(page), '/api/getNoticeList', { page, pageSize: NOTICE_PAGE_SIZE });
  }
  const detail = /^\/notice-detail\/(\d+)$/.exec(pathname);
  if (detail) {
    const id = Number(detail[1]);
    await add(noticeKeys.detail(id), '/api/getNoticeDetail', { id });
  }
  if (pathname === '/job-positions-only-read') {
    const exam = (await add(examKeys.current(), '/api/getCurrentExam')) as { id: number } | null | undefined;
    if (exam) {
      // The key the page reads its first page under (it rendered a skeleton when the two differed).
      await add(positionKeys.publicPage(exam.id, { keyword: '', unit: '', education: '', page: 1 }), '/api/getPositionList', {
        examId: exam.id,
        page: 1,
        pageSize: POSITION_PAGE_SIZE,
      });
    }
  }
  // The public interview list (公示) of the exam the address names.
  const listExam = search.get('examId');
  if (pathname === '/interview-list' && listExam !== null && /^[1-9]\d{0,9}$/.test(listExam)) {
    const examId = Number(listExam);
    await add(scoreKeys.interviewList(examId), '/api/getInterviewList', { examId });
  }
  return queries;
}

/** JSON safe inside a `<script>` element: no `<` can close it or open a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function streamToString(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer | string) => chunks.push(typeof c === 'string' ? Buffer.from(c) : c));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

// The store and the data module are this bundle's singletons: one render at a time.
let queue: Promise<unknown> = Promise.resolve();

/** Renders `url` (path and query) for the office `read` speaks for; null when the page is not rendered here. */
export function render(url: string, read: ReadApi): Promise<RenderedPage | null> {
  const run = queue.then(() => renderNow(url, read));
  queue = run.catch(() => undefined);
  return run;
}

async function renderNow(url: string, read: ReadApi): Promise<RenderedPage | null> {
  const parsed = new URL(url, 'http://localhost');
  const pathname = parsed.pathname.length > 1 ? parsed.pathname.replace(/\/+$/, '') : parsed.pathname;
  if (!isRenderedPath(pathname) || !pagePathFor(pathname)) return null;
  const [sysSetting, sysMenu] = await Promise.all([read('/api/getWSystem'), read('/api/getMenu')]);
  // Without the office's settings (an unknown office, say) the browser renders the page itself.
  if (!sysSetting) return null;
  const data: SsrData = {
    url: `${pathname}${parsed.search}`,
    sysSetting: sysSetting as SystemSetting,
    sysMenu: Array.isArray(sysMenu) ? (sysMenu as MenuItem[]) : [],
    queries: await pageQueries(pathname, parsed.searchParams, read),
    captcha: needsCaptcha(pathname) ? CAPTCHA_SLOT : null,
  };
  await preloadPage(pathname);
  const client = createQueryClient();
  for (const [key, value] of data.queries) client.setQueryData(key, value);
  const cache = createCache();
  setSsrData(data);
  // Times on the office's clock, as the browser shows them once it has the settings.
  setDisplayTimeZone(data.sysSetting?.timeZone);
  // The public pages read their data without TanStack Query (lib/public-query.ts).
  seedPublicQueries(data.queries);
  try {
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <ServerRendered>
          <StyleProvider cache={cache}>
            <ServerQueryClient.Provider value={client}>
              <StaticRouter location={data.url}>
                <AppRoutes />
              </StaticRouter>
            </ServerQueryClient.Provider>
          </StyleProvider>
        </ServerRendered>
      </StrictMode>,
      {
        // One piece: React otherwise sends big Suspense boundaries late and completes them with
        // inline scripts, which the site's CSP (no inline script) refuses.
        progressiveChunkSize: Number.MAX_SAFE_INTEGER,
        onError(error) {
          console.error(error);
        },
      },
    );
    const html = await streamToString(prelude);
    return {
      html,
      styles: extractStyle(cache),
      dataScript: `<script type="application/json" id="${SSR_DATA_ID}">${scriptJson(data)}</script>`,
      title: metaFor(pathname)?.title ?? '',
      officeId: (sysSetting as SystemSetting).officeId,
    };
  } finally {
    setSsrData(null);
    setDisplayTimeZone(undefined);
    seedPublicQueries([]);
    client.clear();
  }
}
