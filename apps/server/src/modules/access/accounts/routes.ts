import multipart from '@fastify/multipart';
import {
  authResultSchema,
  changePasswordSchema,
  envelopeSchema,
  ErrorCode,
  loginSchema,
  officeQuerySchema,
  ok,
  PHOTO_MAX_BYTES,
  registerSchema,
  resetPasswordSchema,
  revealedHintAnswerSchema,
  revealHintAnswerSchema,
  securityQuestionQuerySchema,
  securityQuestionSchema,
  updateUserInfoSchema,
  userInfoSchema,
} from '@zhikaoyun/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readUploadedFile } from '../../../lib/upload';

const done = envelopeSchema(z.null());

/**
 * Per-address limits of the calls that hash or verify a password (each an argon2id run of
 * 19 MiB), on top of the failure counters of lib/failure-guard.ts. Generous where a school lab
 * behind one address does the same thing at once (register, log in), tight where one person
 * does it now and then.
 */
const HASHING_LIMITS = {
  register: { max: 60, timeWindow: '10 minutes' },
  login: { max: 300, timeWindow: '10 minutes' },
  reauth: { max: 60, timeWindow: '10 minutes' },
  recovery: { max: 30, timeWindow: '10 minutes' },
} as const;

const callOf = (request: FastifyRequest) => ({
  officeId: request.office.id,
  candidateId: request.candidate.subjectId,
  sessionId: request.candidate.sessionId,
  ip: request.ip,
});

/** Candidate accounts: register, log in and out, the personal center, password recovery. */
const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.accounts;
  await app.register(multipart, { limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  const tags = ['accounts'];
  const q = officeQuerySchema;

  app.post(
    '/register',
    {
      config: { rateLimit: HASHING_LIMITS.register },
      schema: {
        summary: '注册（登录态随之建立）',
        tags,
        querystring: q,
        body: registerSchema,
        response: { 200: envelopeSchema(authResultSchema) },
      },
    },
    async (request) => ok(await service.register(request.office.id, request.body, request.ip)),
  );

  app.post(
    '/login',
    {
      config: { rateLimit: HASHING_LIMITS.login },
      schema: {
        summary: '登录（身份证号 + 密码 + 验证码）',
        tags,
        querystring: q,
        body: loginSchema,
        response: { 200: envelopeSchema(authResultSchema) },
      },
    },
    async (request) => ok(await service.login(request.office.id, request.body, request.ip)),
  );

  app.post(
    '/logout',
    { config: { auth: 'candidate' }, schema: { summary: '退出登录（服务端作废令牌）', tags, querystring: q, response: { 200: done } } },
    async (request) => {
      await service.logout(request.candidate.sessionId);
      return ok(null);
    },
  );

  app.get(
    '/getUserInfo',
    {
      config: { auth: 'candidate' },
      schema: { summary: '当前考生信息', tags, querystring: q, response: { 200: envelopeSchema(userInfoSchema) } },
    },
    async (request) => ok(await service.getUserInfo(request.office.id, request.candidate.subjectId)),
  );

  app.post(
    '/updateUserInfo',
    {
      config: { auth: 'candidate', rateLimit: HASHING_LIMITS.reauth },
      schema: {
        summary: '修改联系方式与密保（需当前密码；成功后其他登录退出）',
        tags,
        querystring: q,
        body: updateUserInfoSchema,
        response: { 200: envelopeSchema(userInfoSchema) },
      },
    },
    async (request) => {
      const { userInfo, changed } = await service.updateUserInfo(callOf(request), request.body);
      if (changed.length > 0) request.log.info({ event: 'account-changed', fields: changed }, 'security event');
      return ok(userInfo);
    },
  );

  app.post(
    '/revealHintAnswer',
    {
      config: { auth: 'candidate', rateLimit: HASHING_LIMITS.reauth },
      schema: {
        summary: '查看提示答案（需当前密码）',
        tags,
        querystring: q,
        body: revealHintAnswerSchema,
        response: { 200: envelopeSchema(revealedHintAnswerSchema) },
      },
    },
    async (request) => {
      const answer = await service.revealHintAnswer(callOf(request), request.body.password);
      request.log.info({ event: 'hint-answer-shown' }, 'security event');
      return ok(answer);
    },
  );

  app.post(
    '/uploadPhoto',
    {
      config: { auth: 'candidate', rateLimit: { max: 30, timeWindow: '10 minutes' } },
      bodyLimit: PHOTO_MAX_BYTES + 64 * 1024,
      schema: {
        summary: '上传证件照（multipart，字段 file）',
        tags,
        querystring: q,
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(userInfoSchema) },
      },
    },
    async (request) => {
      const { data } = await readUploadedFile(request, {
        code: ErrorCode.PhotoInvalid,
        missing: '请选择要上传的照片',
        tooLarge: `照片不能超过 ${PHOTO_MAX_BYTES / 1024 / 1024} MB，请压缩后重新上传`,
        empty: '照片文件是空的，请重新选择',
      });
      return ok(await service.uploadPhoto(request.office.id, request.candidate.subjectId, data));
    },
  );

  app.post(
    '/changePassword',
    {
      config: { auth: 'candidate', rateLimit: HASHING_LIMITS.reauth },
      schema: { summary: '修改密码', tags, querystring: q, body: changePasswordSchema, response: { 200: done } },
    },
    async (request) => {
      await service.changePassword(callOf(request), request.body);
      return ok(null);
    },
  );

  app.post(
    '/getSecurityQuestion',
    {
      config: { rateLimit: HASHING_LIMITS.recovery },
      schema: {
        summary: '找回密码第一步：密保问题',
        tags,
        querystring: q,
        body: securityQuestionQuerySchema,
        response: { 200: envelopeSchema(securityQuestionSchema) },
      },
    },
    async (request) => ok(await service.getSecurityQuestion(request.office.id, request.body, request.ip)),
  );

  app.post(
    '/resetPassword',
    {
      config: { rateLimit: HASHING_LIMITS.recovery },
      schema: { summary: '找回密码第二步：以提示答案重置密码', tags, querystring: q, body: resetPasswordSchema, response: { 200: done } },
    },
    async (request) => {
      await service.resetPassword(request.office.id, request.body, request.ip);
      return ok(null);
    },
  );
};

export default accountsRoutes;
