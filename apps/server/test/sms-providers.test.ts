import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmsConfig } from '../src/config';
import { aliyunProvider, tencentProvider } from '../src/modules/messages/sms/providers';
import { startStandInApi, type StandInApi } from './helpers/stand-in-api';

let api: StandInApi;
beforeAll(async () => {
  api = await startStandInApi();
});
afterAll(() => api.close());

const message = {
  key: 'sms-7f3a-0001',
  officeId: 1,
  kind: 'rejected' as const,
  mobile: '13912345678',
  params: { exam: '示范考试', detail: '照片不清晰' },
  text: '【示范】您报考的示范考试未通过审核：照片不清晰',
  createdAt: '2026-12-01T08:00:00.000Z',
};

function config(over: Partial<SmsConfig>): SmsConfig {
  return {
    provider: 'log',
    signName: '示范人事考试',
    aliyun: null,
    tencent: null,
    templates: { rejected: 'SMS_900001', verification_code: 'SMS_900009' },
    worker: false,
    leaseMs: 60_000,
    logCrashAfter: null,
    ...over,
  };
}

describe('Alibaba Cloud SMS adapter, through the official SDK to a stand-in endpoint', () => {
  it('sends SendSms signed, with the template, its named parameters and the key as OutId', async () => {
    api.seen.length = 0;
    api.answer = () => ({ Code: 'OK', Message: 'OK', BizId: '900619746936498440^0', RequestId: 'F655A8D5' });
    const p = await aliyunProvider(
      config({ provider: 'aliyun', aliyun: { accessKeyId: 'LTAI-test', accessKeySecret: 'secret', endpoint: api.base } }),
    );
    const out = await p.send(message);
    expect(out).toEqual({ ok: true, providerId: '900619746936498440^0' });
    expect(api.seen).toHaveLength(1);
    const req = api.seen[0]!;
    const params = new URLSearchParams(req.url.split('?')[1] ?? '');
    const body = new URLSearchParams(req.body);
    const field = (name: string) => params.get(name) ?? body.get(name);
    // Signed by the SDK with the key pair (ACS3-HMAC-SHA256), never the secret itself.
    expect(req.headers.authorization).toMatch(
      /^ACS3-HMAC-SHA256 Credential=LTAI-test,SignedHeaders=[^,]*x-acs-action[^,]*,Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.stringify(req)).not.toContain('secret');
    expect(field('Action') ?? req.headers['x-acs-action']).toBe('SendSms');
    expect(field('PhoneNumbers')).toBe('13912345678');
    expect(field('SignName')).toBe('示范人事考试');
    expect(field('TemplateCode')).toBe('SMS_900001');
    expect(JSON.parse(field('TemplateParam') ?? '{}')).toEqual({ exam: '示范考试', detail: '照片不清晰' });
    expect(field('OutId')).toBe(message.key);
  });

  it('tells a refusal no repeat will cure from one worth retrying', async () => {
    const p = await aliyunProvider(
      config({ provider: 'aliyun', aliyun: { accessKeyId: 'LTAI-test', accessKeySecret: 'secret', endpoint: api.base } }),
    );
    api.answer = () => ({ Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号', RequestId: 'r1' });
    expect(await p.send(message)).toEqual({ ok: false, retry: false, reason: 'isv.MOBILE_NUMBER_ILLEGAL: 非法手机号' });
    api.answer = () => ({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发号码天级流控', RequestId: 'r2' });
    expect(await p.send(message)).toEqual({ ok: false, retry: true, reason: 'isv.BUSINESS_LIMIT_CONTROL: 触发号码天级流控' });
  });

  it('finds a message sent before a restart by its OutId (QuerySendDetails), and says so only when found', async () => {
    const p = await aliyunProvider(
      config({ provider: 'aliyun', aliyun: { accessKeyId: 'LTAI-test', accessKeySecret: 'secret', endpoint: api.base } }),
    );
    api.seen.length = 0;
    const details = (outId: string) => ({
      Code: 'OK',
      Message: 'OK',
      TotalCount: 1,
      SmsSendDetailDTOs: { SmsSendDetailDTO: [{ OutId: outId, PhoneNum: '13912345678', SendStatus: 3, TemplateCode: 'SMS_900001' }] },
    });
    api.answer = () => details(message.key);
    expect(await p.alreadySent(message)).toBe(true);
    const query = new URLSearchParams(api.seen[0]!.url.split('?')[1] ?? '');
    expect(api.seen[0]!.headers['x-acs-action']).toBe('QuerySendDetails');
    expect(query.get('PhoneNumber')).toBe('13912345678');
    // Alibaba counts send dates in Beijing time: 08:00Z on 1 December is the 1st there.
    expect(query.get('SendDate')).toBe('20261201');
    api.answer = () => details('another-key');
    expect(await p.alreadySent(message)).toBe(false);
  });

  it('refuses a kind without a template without calling the provider', async () => {
    const p = await aliyunProvider(
      config({ provider: 'aliyun', aliyun: { accessKeyId: 'LTAI-test', accessKeySecret: 'secret', endpoint: api.base } }),
    );
    api.seen.length = 0;
    expect(await p.send({ ...message, kind: 'approved' })).toEqual({
      ok: false,
      retry: false,
      reason: '未配置短信模板（SMS_TEMPLATE_APPROVED）',
    });
    expect(api.seen).toHaveLength(0);
  });
});

describe('Tencent Cloud SMS adapter, through the official SDK to a stand-in endpoint', () => {
  it('sends SendSms signed (TC3), with the template, its parameters in order and the key as SessionContext', async () => {
    api.seen.length = 0;
    api.answer = () => ({
      Response: {
        SendStatusSet: [
          {
            SerialNo: '5000:1045710669157053657849499619',
            PhoneNumber: '+8613912345678',
            Fee: 1,
            SessionContext: message.key,
            Code: 'Ok',
            Message: 'send success',
            IsoCode: 'CN',
          },
        ],
        RequestId: 'a0aabda6-cf91-4f3e-a81f-9198114a2279',
      },
    });
    const p = await tencentProvider(
      config({
        provider: 'tencent',
        tencent: { secretId: 'AKID-test', secretKey: 'secret', sdkAppId: '1400006666', region: 'ap-guangzhou', endpoint: api.base },
      }),
    );
    const out = await p.send(message);
    expect(out).toEqual({ ok: true, providerId: '5000:1045710669157053657849499619' });
    const req = api.seen[0]!;
    expect(req.headers['x-tc-action']).toBe('SendSms');
    expect(req.headers['x-tc-version']).toBe('2021-01-11');
    expect(req.headers.authorization).toMatch(
      /^TC3-HMAC-SHA256 Credential=AKID-test\/\d{4}-\d{2}-\d{2}\/[^/]+\/tc3_request, SignedHeaders=content-type;host, Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.parse(req.body)).toEqual({
      PhoneNumberSet: ['+8613912345678'],
      SmsSdkAppId: '1400006666',
      SignName: '示范人事考试',
      TemplateId: 'SMS_900001',
      TemplateParamSet: ['示范考试', '照片不清晰'],
      SessionContext: message.key,
    });
    expect(JSON.stringify(req)).not.toContain('secret');
  });

  it('tells a blacklisted number (final) from a daily limit (retried later)', async () => {
    const p = await tencentProvider(
      config({
        provider: 'tencent',
        tencent: { secretId: 'AKID-test', secretKey: 'secret', sdkAppId: '1400006666', region: 'ap-guangzhou', endpoint: api.base },
      }),
    );
    const status = (Code: string, Message: string) => ({
      Response: {
        SendStatusSet: [{ SerialNo: '', PhoneNumber: '+8613912345678', Fee: 0, SessionContext: message.key, Code, Message, IsoCode: 'CN' }],
        RequestId: 'r',
      },
    });
    api.answer = () => status('FailedOperation.PhoneNumberInBlacklist', '号码在免打扰名单中');
    expect(await p.send(message)).toMatchObject({ ok: false, retry: false });
    api.answer = () => status('LimitExceeded.PhoneNumberDailyLimit', '单个手机号日下发条数超过上限');
    expect(await p.send(message)).toMatchObject({ ok: false, retry: true });
    // An error of the whole call (the SDK throws it): a signature refused is final.
    api.answer = () => ({ Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: '签名错误' }, RequestId: 'r' } });
    expect(await p.send(message)).toMatchObject({ ok: false, retry: false });
  });

  it('finds a delivered message by its SessionContext; not finding it proves nothing', async () => {
    const p = await tencentProvider(
      config({
        provider: 'tencent',
        tencent: { secretId: 'AKID-test', secretKey: 'secret', sdkAppId: '1400006666', region: 'ap-guangzhou', endpoint: api.base },
      }),
    );
    const pulled = (SessionContext: string) => ({
      Response: {
        PullSmsSendStatusSet: [
          {
            UserReceiveTime: '2026-12-01 16:00:08',
            CountryCode: '86',
            SubscriberNumber: '13912345678',
            PhoneNumber: '+8613912345678',
            SerialNo: 's',
            ReportStatus: 'SUCCESS',
            Description: '用户接收成功',
            SessionContext,
          },
        ],
        RequestId: 'r',
      },
    });
    api.seen.length = 0;
    api.answer = () => pulled(message.key);
    expect(await p.alreadySent(message)).toBe(true);
    expect(api.seen[0]!.headers['x-tc-action']).toBe('PullSmsSendStatusByPhoneNumber');
    api.answer = () => pulled('another-key');
    expect(await p.alreadySent(message)).toBeNull();
  });
});
