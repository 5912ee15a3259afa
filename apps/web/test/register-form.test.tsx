import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import RegisterPage from '../src/features/access/accounts/pages/RegisterPage';

// No server here: the captcha, the SMS setting and the registration call fail quietly.
vi.mock('../src/lib/api-client', () => ({
  getData: () => Promise.reject(new Error('offline')),
  postData: vi.fn(() => Promise.reject(new Error('offline'))),
}));

const page = () =>
  render(
    <MemoryRouter initialEntries={['/register']}>
      <RegisterPage />
    </MemoryRouter>,
  );

describe('registration form (plain, rules from the shared schemas)', () => {
  it('keeps the ids and labels, and says what is missing on submit, field by field', async () => {
    page();
    const idno = screen.getByRole('textbox', { name: '身份证号码' });
    expect(idno.id).toBe('register_idno');
    expect(screen.getByRole('combobox', { name: '密保问题' }).id).toBe('register_question');
    expect(screen.getByLabelText('确认密码').id).toBe('register_confirm');
    await userEvent.click(screen.getByRole('button', { name: '注册并登录' }));
    for (const message of [
      '请输入与身份证一致的姓名',
      '密码至少 8 位',
      '请再次输入密码',
      '请输入正确的 11 位手机号码',
      '请从列表中选择密保问题',
      '请输入提示答案',
      '请输入验证码',
      '请阅读并同意注册协议',
      '请阅读并单独同意处理身份证号码等敏感个人信息',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(idno.getAttribute('aria-invalid')).toBe('true');
    expect(idno.getAttribute('aria-describedby')).toBe('register_idno_help');
    // The extra line stays below the error, both describe the field.
    expect(screen.getByLabelText('密码', { selector: 'input' }).getAttribute('aria-describedby')).toBe(
      'register_password_help register_password_extra',
    );
  });

  it('drops the spaces of a pasted ID number and judges it on leaving the field', async () => {
    page();
    const idno = screen.getByRole('textbox', { name: '身份证号码' });
    await userEvent.click(idno);
    await userEvent.paste(' 110105 19491231 0021');
    expect((idno as HTMLInputElement).value).toBe('110105194912310021');
    await userEvent.click(screen.getByRole('textbox', { name: '姓名' }));
    expect(await screen.findByText('身份证号码校验位不正确，请核对后重新输入')).toBeTruthy();
  });

  it('judges the repeated password again when the password changes under it', async () => {
    page();
    const password = screen.getByLabelText('密码', { selector: 'input' });
    const confirm = screen.getByLabelText('确认密码');
    await userEvent.type(password, 'a good long password');
    await userEvent.type(confirm, 'a good long passwor');
    await userEvent.click(screen.getByRole('textbox', { name: '手机号码' }));
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
    await userEvent.clear(password);
    await userEvent.type(password, 'a good long passwor');
    await waitFor(() => expect(screen.queryByText('两次输入的密码不一致')).toBeNull());
  });
});
