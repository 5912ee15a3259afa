import { MESSAGE_TEMPLATES, maskMobile, SMS_CODE_TEMPLATE, zonedDay, type MessageParams, type SmsMessageKind } from '@zhikaoyun/shared';
import type { FastifyBaseLogger } from 'fastify';
import { nowIso } from '../../../lib/clock';
import type { SmsRepository } from './repository';
import { cjsDefault } from '../../../lib/cjs-default';

/** The SMS part of the configuration (config.ts reads it from the environment). */
export interface SmsConfig {
  provider: 'log' | 'aliyun' | 'tencent';
  signName: string;
  aliyun: { accessKeyId: string; accessKeySecret: string; endpoint: string } | null;
  tencent: { secretId: string; secretKey: string; sdkAppId: string; region: string; endpoint: string } | null;
  /** The provider's template id per kind (SMS_TEMPLATE_REJECTED, …); a kind without one fails with that said. */
  templates: Partial<Record<SmsMessageKind, string>>;
  worker: boolean;
  leaseMs: number;
  logCrashAfter: number | null;
}

/** One message as a provider is asked to send it. */
export interface OutgoingSms {
  /** The outbox row's idempotency key: the same on every attempt of this message. */
  key: string;
  officeId: number;
  kind: SmsMessageKind;
  mobile: string;
  params: MessageParams;
  text: string;
  createdAt: string;
}

export type SendOutcome =
  | { ok: true; providerId: string; duplicate?: boolean }
  /** `retry`: worth trying again later (throttled, network, provider busy); else final (bad number, template). */
  | { ok: false; retry: boolean; reason: string };

export interface SmsProvider {
  readonly name: string;
  send(m: OutgoingSms): Promise<SendOutcome>;
  /**
   * Asked before repeating an attempt whose outcome is unknown (its worker died between the
   * provider's answer and writing it down): true when the provider already has this key, null
   * when it cannot tell.
   */
  alreadySent(m: OutgoingSms): Promise<boolean | null>;
}

function paramsFor(kind: SmsMessageKind) {
  return kind === 'verification_code' ? SMS_CODE_TEMPLATE.smsParams : MESSAGE_TEMPLATES[kind].smsParams;
}

/** The template's parameters as the provider's template declares them, in order. */
export function templateValues(m: OutgoingSms): { name: string; value: string }[] {
  return paramsFor(m.kind).map((name) => ({ name, value: String(m.params[name] ?? '') }));
}

/**
 * The default provider: sends nothing, records what would have been sent (masked number, text,
 * key) in `sms_log` and the server log. Its record is unique by key, so a repeated key is refused
 * like a provider that deduplicates would: the test of exactly-once delivery.
 */
export function logProvider(repo: SmsRepository, log: FastifyBaseLogger, crashAfter: number | null): SmsProvider {
  let recorded = 0;
  // The worker sends many messages at once: those of one turn are recorded in one statement
  // (a provider's batch API does the same), each caller answered from its own key.
  let pending: {
    row: Parameters<SmsRepository['logSendMany']>[0][number];
    done: (fresh: boolean) => void;
    fail: (err: unknown) => void;
  }[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    repo.logSendMany(batch.map((p) => p.row)).then(
      (fresh) => {
        for (const p of batch) {
          const isNew = fresh.delete(p.row.idem_key);
          p.done(isNew);
        }
      },
      (err: unknown) => batch.forEach((p) => p.fail(err)),
    );
  };
  const record = (row: (typeof pending)[number]['row']) =>
    new Promise<boolean>((done, fail) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ row, done, fail });
    });
  return {
    name: 'log',
    async send(m) {
      const fresh = await record({
        office_id: m.officeId,
        idem_key: m.key,
        kind: m.kind,
        mobile: maskMobile(m.mobile),
        text: m.text,
        at: nowIso(),
      });
      if (!fresh) {
        log.warn({ sms: { key: m.key, kind: m.kind } }, 'sms log provider: repeated key refused');
        return { ok: true, providerId: `log:${m.key}`, duplicate: true };
      }
      log.info({ sms: { key: m.key, kind: m.kind, mobile: maskMobile(m.mobile), text: m.text } }, 'sms (log provider, not sent)');
      recorded += 1;
      // Tests only (refused in production): die right after the provider took the message and
      // before the outbox heard of it, the worst moment for exactly-once.
      if (crashAfter !== null && recorded >= crashAfter) process.kill(process.pid, 'SIGKILL');
      return { ok: true, providerId: `log:${m.key}` };
    },
    alreadySent: (m) => repo.logged(m.key),
  };
}

/** Error codes of the providers that no repeat will cure: the number or the office's set-up is wrong. */
const ALIYUN_FINAL =
  /^(isv\.MOBILE_NUMBER_ILLEGAL|isv\.MOBILE_COUNT_OVER_LIMIT|isv\.TEMPLATE_MISSING_PARAMETERS|isv\.SMS_TEMPLATE_ILLEGAL|isv\.SMS_SIGNATURE_ILLEGAL|isv\.INVALID_PARAMETERS|isv\.PARAM_LENGTH_LIMIT|isv\.BLACK_KEY_CONTROL_LIMIT|isv\.DENY_IP_RANGE|isv\.ACCOUNT_NOT_EXISTS|isv\.ACCOUNT_ABNORMAL|InvalidAccessKeyId|SignatureDoesNotMatch)/;
const TENCENT_FINAL =
  /^(InvalidParameterValue|FailedOperation\.(TemplateIncorrectOrUnapproved|SignatureIncorrectOrUnapproved|PhoneNumberInBlacklist|MissingTemplateToModify|ContainSensitiveWord)|UnauthorizedOperation|AuthFailure|UnsupportedOperation)/;

function errorText(err: unknown): { code: string; message: string } {
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; message?: unknown };
    return { code: typeof e.code === 'string' ? e.code : '', message: typeof e.message === 'string' ? e.message : JSON.stringify(err) };
  }
  return { code: '', message: String(err) };
}

/**
 * A provider endpoint: a host name (HTTPS, as the providers serve), or an `http://host:port` URL
 * for a stand-in on this machine (the adapters' tests answer as the providers do).
 */
function endpointOf(value: string): { host: string; protocol: 'http' | 'https' } {
  const m = /^(https?):\/\/([^/]+)\/?$/.exec(value);
  return m ? { host: m[2]!, protocol: m[1] as 'http' | 'https' } : { host: value, protocol: 'https' };
}

/** Alibaba Cloud SMS (dysmsapi 2017-05-25): SendSms with OutId = the key; QuerySendDetails finds it again. */
export async function aliyunProvider(cfg: SmsConfig): Promise<SmsProvider> {
  const a = cfg.aliyun;
  if (!a) throw new Error('SMS_PROVIDER=aliyun needs ALIYUN_SMS_ACCESS_KEY_ID, ALIYUN_SMS_ACCESS_KEY_SECRET and SMS_SIGN_NAME');
  const sdk = await import('@alicloud/dysmsapi20170525');
  const { $OpenApiUtil } = await import('@alicloud/openapi-core');
  const Client = cjsDefault(sdk.default);
  const endpoint = endpointOf(a.endpoint);
  const client = new Client(
    new $OpenApiUtil.Config({
      accessKeyId: a.accessKeyId,
      accessKeySecret: a.accessKeySecret,
      endpoint: endpoint.host,
      protocol: endpoint.protocol,
    }),
  );
  // Alibaba Cloud counts send dates in Beijing time.
  const sendDate = (iso: string) => zonedDay(iso, 'Asia/Shanghai').replaceAll('-', '');
  return {
    name: 'aliyun',
    async send(m) {
      const template = m.kind === 'verification_code' ? cfg.templates.verification_code : cfg.templates[m.kind];
      if (!template) return { ok: false, retry: false, reason: `未配置短信模板（SMS_TEMPLATE_${m.kind.toUpperCase()}）` };
      try {
        const res = await client.sendSms(
          new sdk.SendSmsRequest({
            phoneNumbers: m.mobile,
            signName: cfg.signName,
            templateCode: template,
            templateParam: JSON.stringify(Object.fromEntries(templateValues(m).map((p) => [p.name, p.value]))),
            outId: m.key,
          }),
        );
        const body = res.body;
        if (body?.code === 'OK') return { ok: true, providerId: body.bizId ?? '' };
        const code = body?.code ?? 'unknown';
        return { ok: false, retry: !ALIYUN_FINAL.test(code), reason: `${code}: ${body?.message ?? ''}` };
      } catch (err) {
        const e = errorText(err);
        return { ok: false, retry: !ALIYUN_FINAL.test(e.code), reason: `${e.code || 'error'}: ${e.message}` };
      }
    },
    async alreadySent(m) {
      try {
        for (const day of new Set([sendDate(m.createdAt), sendDate(nowIso())])) {
          const res = await client.querySendDetails(
            new sdk.QuerySendDetailsRequest({ phoneNumber: m.mobile, sendDate: day, pageSize: 50, currentPage: 1 }),
          );
          const found = res.body?.smsSendDetailDTOs?.smsSendDetailDTO?.some((d) => d.outId === m.key);
          if (found) return true;
        }
        return false;
      } catch {
        return null;
      }
    },
  };
}

/** Tencent Cloud SMS (2021-01-11): SendSms with SessionContext = the key, echoed in its receipts. */
export async function tencentProvider(cfg: SmsConfig): Promise<SmsProvider> {
  const t = cfg.tencent;
  if (!t)
    throw new Error('SMS_PROVIDER=tencent needs TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY, TENCENT_SMS_SDK_APP_ID and SMS_SIGN_NAME');
  const sdk = await import('tencentcloud-sdk-nodejs-sms');
  const Client = sdk.sms.v20210111.Client;
  const endpoint = endpointOf(t.endpoint);
  const client = new Client({
    credential: { secretId: t.secretId, secretKey: t.secretKey },
    region: t.region,
    profile: { httpProfile: { endpoint: endpoint.host, protocol: `${endpoint.protocol}://`, reqTimeout: 10 } },
  });
  return {
    name: 'tencent',
    async send(m) {
      const template = m.kind === 'verification_code' ? cfg.templates.verification_code : cfg.templates[m.kind];
      if (!template) return { ok: false, retry: false, reason: `未配置短信模板（SMS_TEMPLATE_${m.kind.toUpperCase()}）` };
      try {
        const res = await client.SendSms({
          PhoneNumberSet: [`+86${m.mobile}`],
          SmsSdkAppId: t.sdkAppId,
          SignName: cfg.signName,
          TemplateId: template,
          TemplateParamSet: templateValues(m).map((p) => p.value),
          SessionContext: m.key,
        });
        const status = res.SendStatusSet?.[0];
        if (status?.Code === 'Ok') return { ok: true, providerId: status.SerialNo ?? '' };
        const code = status?.Code ?? 'unknown';
        return { ok: false, retry: !TENCENT_FINAL.test(code), reason: `${code}: ${status?.Message ?? ''}` };
      } catch (err) {
        const e = errorText(err);
        return { ok: false, retry: !TENCENT_FINAL.test(e.code), reason: `${e.code || 'error'}: ${e.message}` };
      }
    },
    async alreadySent(m) {
      // Tencent reports a message by phone only once the carrier answered: finding the key
      // proves it was sent, not finding it proves nothing.
      try {
        const begin = Math.floor(Date.parse(m.createdAt) / 1000);
        const res = await client.PullSmsSendStatusByPhoneNumber({
          BeginTime: begin,
          Offset: 0,
          Limit: 100,
          PhoneNumber: `+86${m.mobile}`,
          SmsSdkAppId: t.sdkAppId,
        });
        return res.PullSmsSendStatusSet?.some((s) => s.SessionContext === m.key) ? true : null;
      } catch {
        return null;
      }
    },
  };
}

export async function createProvider(cfg: SmsConfig, repo: SmsRepository, log: FastifyBaseLogger): Promise<SmsProvider> {
  switch (cfg.provider) {
    case 'aliyun':
      return aliyunProvider(cfg);
    case 'tencent':
      return tencentProvider(cfg);
    case 'log':
      return logProvider(repo, log, cfg.logCrashAfter);
  }
}
