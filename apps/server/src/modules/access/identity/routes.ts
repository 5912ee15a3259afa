import {
  correctIdentityNameSchema,
  envelopeSchema,
  ErrorCode,
  identityStatusSchema,
  officeQuerySchema,
  ok,
  startFaceVerifyResultSchema,
  startFaceVerifySchema,
} from '@zhikaoyun/shared';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '../../../lib/app-error';
import { FACE_NOTIFY_PATH, FACE_RETURN_PATH, FACE_START_PATH } from './service';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const tokenSchema = z.object({ token: z.string().min(16, { message: '核验链接无效或已过期' }).max(100) });

const INVALID_LINK = '核验链接无效或已过期，请返回报名系统重新发起人脸核验。';

/**
 * Our small pages of the face check (the sandbox's, the start page, a failure): no personal data,
 * no store, no framing. `script`: inline code allowed by a one-time nonce (the start page's only).
 */
function identityPage(
  reply: FastifyReply,
  p: { title: string; tag: string; note: string; actions?: string; script?: { nonce: string; html: string; csp: string } },
) {
  const html = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(p.title)}</title><style>
body{margin:0;font:16px/1.6 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f2f4f7;color:#1f2329}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.card{background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 3px rgba(0,0,0,.08);text-align:center}
.tag{display:inline-block;background:#fff7e6;color:#ad6800;border:1px solid #ffd591;border-radius:4px;padding:0 8px;font-size:13px}
h1{font-size:20px;margin:12px 0 4px}.face{width:140px;height:140px;margin:20px auto;border-radius:50%;border:3px dashed #91caff;display:flex;align-items:center;justify-content:center;color:#1677ff;font-size:14px}
p{font-size:14px;color:#646a73;text-align:left}form{margin-top:12px}
button{width:100%;height:48px;border:0;border-radius:8px;font-size:17px}.pass{background:#1677ff;color:#fff}.fail{background:#fff;color:#cf1322;border:1px solid #ffa39e}
a{display:block;text-align:center;margin-top:16px;color:#1677ff}
</style>${p.script?.html ?? ''}</head><body><main><div class="card"><span class="tag">${escape(p.tag)}</span>
<h1>${escape(p.title)}</h1><div class="face">请正对屏幕</div><p id="note" role="status">${escape(p.note)}</p>
${p.actions ?? ''}
<a href="${FACE_RETURN_PATH}">返回报名系统</a></div></main></body></html>`;
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
  if (p.script) reply.header('content-security-policy', p.script.csp);
  return reply.send(html);
}

/** The address the candidate reached us at: the provider sends them back there. */
function originOf(request: FastifyRequest, publicUrl: string | null): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/** The candidate's identity checks: status, the face check's start, a failed check's name correction. */
export const identityRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.identity;
  const tags = ['identity'];
  const q = officeQuerySchema;

  app.get(
    '/getIdentityStatus',
    {
      config: { auth: 'candidate' },
      schema: { summary: '实名核验与人脸核验状态', tags, querystring: q, response: { 200: envelopeSchema(identityStatusSchema) } },
    },
    async (request) => ok(await service.status(request.office.id, request.candidate.subjectId)),
  );

  app.post(
    '/startFaceVerify',
    {
      config: { auth: 'candidate', rateLimit: { max: 20, timeWindow: '10 minutes' } },
      schema: {
        summary: '开始人脸核验（返回核验页面地址）',
        tags,
        querystring: q,
        body: startFaceVerifySchema,
        response: { 200: envelopeSchema(startFaceVerifyResultSchema) },
      },
    },
    async (request) =>
      ok(
        await service.startFace(
          request.office.id,
          request.candidate.subjectId,
          request.body.examId,
          originOf(request, app.services.identityPublicUrl),
        ),
      ),
  );

  app.post(
    '/correctIdentityName',
    {
      config: { auth: 'candidate', rateLimit: { max: 10, timeWindow: '10 minutes' } },
      schema: {
        summary: '实名核验未通过时更正姓名并重新核验',
        tags,
        querystring: q,
        body: correctIdentityNameSchema,
        response: { 200: envelopeSchema(identityStatusSchema) },
      },
    },
    async (request) => ok(await service.correctName(request.office.id, request.candidate.subjectId, request.body.name, request.ip)),
  );

  // The provider's redirect back (its RedirectUrl / ReturnUrl): the result is asked for at once.
  app.get(
    '/identity/callback',
    { config: { tenant: false }, schema: { summary: '人脸核验回跳（主动查询结果后返回报名页）', tags, querystring: tokenSchema } },
    async (request, reply) => {
      await service.callback(request.query.token);
      return reply.redirect(`${FACE_RETURN_PATH}?face=done`, 303);
    },
  );

  // The start page of a provider whose web SDK must describe the browser first (Aliyun's
  // getMetaInfo(), which refuses made-up values). The SDK is the provider's script: it runs here
  // only, never in the site, and in a sandbox (an opaque origin) so that it reaches neither the
  // candidate's session nor our storage; all it can do is hand its answer to the next step.
  app.get(
    FACE_START_PATH.slice('/api'.length),
    {
      config: { tenant: false },
      schema: { summary: '人脸核验启动页（由服务商网页 SDK 采集浏览器环境信息）', tags, querystring: tokenSchema },
    },
    async (request, reply) => {
      const sdk = app.services.identityWebSdkUrl;
      if (sdk === null) return identityPage(reply, { title: '人脸核验', tag: '人脸核验', note: INVALID_LINK });
      const nonce = randomBytes(16).toString('base64');
      const next = `${FACE_START_PATH}/go?token=${encodeURIComponent(request.query.token)}&metaInfo=`;
      const html = `<script nonce="${nonce}" src="${escape(sdk)}"></script><script nonce="${nonce}">
window.addEventListener('load',function(){var n=document.getElementById('note');
try{var m=window.getMetaInfo();location.replace(${JSON.stringify(next)}+encodeURIComponent(typeof m==='string'?m:JSON.stringify(m)));}
catch(e){n.textContent='人脸核验组件加载失败：请检查网络后刷新本页，或返回报名系统重新发起人脸核验。';}});
</script>`;
      const csp = [
        "default-src 'none'",
        `script-src 'nonce-${nonce}' ${new URL(sdk).origin}`,
        "style-src 'unsafe-inline'",
        'connect-src https:',
        'img-src https: data:',
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
        'sandbox allow-scripts',
      ].join('; ');
      return identityPage(reply, {
        title: '人脸核验',
        tag: '正在准备人脸核验',
        note: '正在准备人脸核验，请稍候…… 页面将自动打开核验服务商的核验页面，请由本人按提示操作。',
        script: { nonce, html, csp },
      });
    },
  );

  app.get(
    `${FACE_START_PATH.slice('/api'.length)}/go`,
    {
      config: { tenant: false, rateLimit: { max: 20, timeWindow: '10 minutes' } },
      schema: {
        summary: '人脸核验启动：带浏览器环境信息向服务商发起核验并跳转',
        tags,
        querystring: tokenSchema.extend({ metaInfo: z.string().min(2).max(4000) }),
      },
    },
    async (request, reply) => {
      try {
        const url = await service.launchFace(
          request.query.token,
          request.query.metaInfo,
          originOf(request, app.services.identityPublicUrl),
        );
        return reply.redirect(url, 303);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return identityPage(reply.code(200), { title: '人脸核验', tag: '人脸核验', note: err.message });
      }
    },
  );

  // The provider's server-to-server notice that a check ended (Aliyun appends certifyId, passed
  // and our callbackToken to the CallbackUrl). Its `passed` is not trusted: the provider is asked.
  const notifySchema = z.object({ callbackToken: z.string().min(16).max(100), certifyId: z.string().max(100).optional() });
  const notify = async (fields: unknown) => {
    const parsed = notifySchema.safeParse(fields);
    if (!parsed.success) throw new AppError(ErrorCode.Validation, '核验通知参数有误');
    if (!(await service.notify(parsed.data.callbackToken, parsed.data.certifyId ?? null))) throw notFound('faceCheck');
    return ok({ received: true });
  };
  const notifyPath = FACE_NOTIFY_PATH.slice('/api'.length);
  const notifyConfig = { tenant: false, rateLimit: { max: 120, timeWindow: '1 minute' } } as const;
  app.get(notifyPath, { config: notifyConfig, schema: { summary: '人脸核验结果通知（服务商服务端调用）', tags } }, async (request) =>
    notify(request.query),
  );
  app.post(notifyPath, { config: notifyConfig, schema: { summary: '人脸核验结果通知（服务商服务端调用）', tags } }, async (request) =>
    notify({ ...(request.query as object), ...(typeof request.body === 'object' ? request.body : {}) }),
  );
};

/** The sandbox's face page: no camera, two buttons that answer as a provider's callback would. */
export const identitySandboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.identity;
  const tags = ['identity'];
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4 * 1024 }, (_request, body, done) => done(null, body));

  app.get(
    '/identity/sandbox/face',
    { config: { tenant: false }, schema: { summary: '模拟人脸核验页面', tags, querystring: tokenSchema } },
    async (request, reply) => {
      const row = await service.byToken(request.query.token);
      const open = row?.provider === 'sandbox' && row.kind === 'face' && row.status === 'pending';
      const note = !row
        ? INVALID_LINK
        : open
          ? '这是模拟的人脸核验页面：不会打开摄像头，也不保存任何照片。请选择核验结果。'
          : `该次核验已结束（${row.status === 'passed' ? '通过' : '未通过'}）。`;
      const token = escape(request.query.token);
      return identityPage(reply, {
        title: '人脸核验',
        tag: '模拟人脸核验 · 不采集人脸',
        note,
        actions: open
          ? `<form method="post" action="/api/identity/sandbox/face"><input type="hidden" name="token" value="${token}"><input type="hidden" name="result" value="pass"><button class="pass" type="submit">通过</button></form>
<form method="post" action="/api/identity/sandbox/face"><input type="hidden" name="token" value="${token}"><input type="hidden" name="result" value="fail"><button class="fail" type="submit">不通过</button></form>`
          : '',
      });
    },
  );

  app.post(
    '/identity/sandbox/face',
    { config: { tenant: false }, schema: { summary: '模拟人脸核验：给出结果（如同服务商回调）', tags } },
    async (request, reply) => {
      const text = typeof request.body === 'string' ? request.body : '';
      const form = (request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
      let raw: unknown;
      try {
        raw = form ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text || '{}');
      } catch {
        raw = {};
      }
      const parsed = tokenSchema.extend({ result: z.enum(['pass', 'fail']) }).safeParse(raw);
      if (!parsed.success) throw new AppError(ErrorCode.Validation, '核验链接无效或已过期');
      await service.sandboxComplete(parsed.data.token, parsed.data.result === 'pass');
      // Back through the callback, as a provider's page sends the candidate back.
      const back = `/api/identity/callback?token=${encodeURIComponent(parsed.data.token)}`;
      return form ? reply.redirect(back, 303) : ok({ status: parsed.data.result === 'pass' ? 'passed' : 'failed' });
    },
  );
};
