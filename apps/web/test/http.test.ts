import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MessageInstance } from 'antd/es/message/interface';
import { bindMessage } from '../src/lib/feedback';
import { createHttpClient, RequestError, setUnauthorizedHandler } from '../src/lib/http';
import { useSysStore } from '../src/lib/store';

/** A real HTTP server the client talks to over the loopback; each path plays one answer. */
let server: Server;
let base = '';
const seen: { headers: IncomingMessage['headers']; url: string }[] = [];

function handler(req: IncomingMessage, res: ServerResponse) {
  seen.push({ headers: req.headers, url: req.url ?? '' });
  const url = new URL(req.url ?? '/', 'http://x');
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === '/ok') return json(200, { success: true, data: { webname: '测试' } });
  if (url.pathname === '/fail') return json(200, { success: false, errorCode: 1001, msg: '手机号格式不正确' });
  if (url.pathname === '/expired') return json(200, { success: false, errorCode: 401, msg: '登录已失效' });
  if (url.pathname === '/slow') return void setTimeout(() => json(200, { success: true }), 500);
  const status = Number(url.pathname.slice(1));
  if (status === 401) return json(401, { success: false, errorCode: 401, msg: '请先登录' });
  if (status === 418) return json(418, { success: false, msg: '茶壶' });
  return json(status, { success: false });
}

const toasts: string[] = [];
const recorder = { error: (text: string) => toasts.push(text) } as unknown as MessageInstance;

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  bindMessage(recorder);
});
afterAll(async () => {
  bindMessage(null);
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  bindMessage(recorder);
  toasts.length = 0;
  seen.length = 0;
  sessionStorage.clear();
  useSysStore.setState({ token: '', officeId: null, officeCode: null });
});

function client() {
  const c = createHttpClient(base);
  c.defaults.adapter = 'http'; // real sockets, not the DOM's XHR
  return c;
}

async function failure(path: string, config: object = {}): Promise<RequestError> {
  try {
    await client().get(path, config);
  } catch (err) {
    expect(err).toBeInstanceOf(RequestError);
    return err as RequestError;
  }
  throw new Error(`${path} did not fail`);
}

describe('HTTP client', () => {
  it('times out after 15 seconds by default', () => {
    expect(client().defaults.timeout).toBe(15_000);
  });

  it('sends the bearer and token headers and the office parameters, unless the call opts out', async () => {
    useSysStore.getState().setToken('tok-abc');
    useSysStore.getState().setOffice({ officeId: 3, officeCode: 'demo' });
    await client().get('/ok');
    expect(seen[0]?.headers.authorization).toBe('Bearer tok-abc');
    expect(seen[0]?.headers.token).toBe('tok-abc');
    expect(seen[0]?.url).toContain('officeId=3');
    expect(seen[0]?.url).toContain('officeCode=demo');
    await client().get('/ok', { noOffice: true });
    expect(seen[1]?.url).toBe('/ok');
  });

  it('sends no credentials without a token', async () => {
    await client().get('/ok');
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(seen[0]?.headers.token).toBeUndefined();
  });

  it('accepts success, and failure only when raw is asked for', async () => {
    const ok = await client().get('/ok');
    expect(ok.data).toEqual({ success: true, data: { webname: '测试' } });
    const raw = await client().get('/fail', { raw: true });
    expect(raw.data).toMatchObject({ success: false });
    expect(toasts).toEqual([]);
  });
});

describe('error catalogue , word for word', () => {
  it('body success:false shows 请求失败: {msg}', async () => {
    const err = await failure('/fail');
    expect(toasts).toEqual(['请求失败: 手机号格式不正确']);
    expect(err.errorCode).toBe(1001);
  });

  it('body errorCode 401 shows 未授权，请重新登录 and ends the session', async () => {
    let called = 0;
    setUnauthorizedHandler(() => called++);
    await failure('/expired');
    expect(toasts).toEqual(['未授权，请重新登录']);
    expect(called).toBe(1);
    setUnauthorizedHandler(() => undefined);
  });

  const table: [number, string][] = [
    [400, '请求错误'],
    [401, '请先登录'],
    [403, '拒绝访问'],
    [404, '请求地址出错'],
    [408, '请求超时'],
    [500, '服务器内部错误'],
    [501, '服务未实现'],
    [502, '网关错误'],
    [503, '服务不可用'],
    [504, '网关超时'],
    [505, 'HTTP版本不受支持'],
    [418, '未知错误 茶壶'],
  ];
  for (const [status, text] of table) {
    it(`HTTP ${status} shows ${text}`, async () => {
      const err = await failure(`/${status}`);
      expect(toasts).toEqual([text]);
      expect(err.status).toBe(status);
    });
  }

  it('a timeout shows 请求超时', async () => {
    await failure('/slow', { timeout: 50 });
    expect(toasts).toEqual(['请求超时']);
  });

  it('no response shows 网络异常', async () => {
    const c = createHttpClient('http://127.0.0.1:1');
    c.defaults.adapter = 'http';
    await expect(c.get('/ok')).rejects.toBeInstanceOf(RequestError);
    expect(toasts).toEqual(['网络异常']);
  });

  it('shows one toast when the same failure comes several times at once', async () => {
    await Promise.all([failure('/500'), failure('/500'), failure('/500')]);
    expect(toasts).toEqual(['服务器内部错误']);
  });

  it('a silent call rejects without a toast', async () => {
    await failure('/fail', { silent: true });
    await failure('/500', { silent: true });
    expect(toasts).toEqual([]);
  });
});
