import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HINT_ANSWER_MASK, type UserInfo } from '@zhikaoyun/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MobileBaseInfoCard } from '../src/components/MobileBaseInfoCard';
import { MobileUserInfoCard } from '../src/components/MobileUserInfoCard';
import { useSysStore } from '../src/lib/store';

const user: UserInfo = {
  id: 1,
  idno: '11010519491231002X',
  name: '李四',
  photo: '',
  mobile: '',
  email: 'li@example.cn',
  question: '母亲的姓名？',
  answer: '王芳',
  birthday: '1949-12-31',
  sex: '女',
};

describe('mobile user info card', () => {
  beforeEach(() => useSysStore.setState({ examName: '' }));

  it('hides the hint answer behind 6 dots and toggles it', async () => {
    render(<MobileUserInfoCard userInfo={user} />);
    const answer = screen.getByTestId('hint-answer');
    expect(answer.textContent).toBe('••••••');
    await userEvent.click(screen.getByRole('button', { name: /显示/ }));
    expect(answer.textContent).toBe('王芳');
    await userEvent.click(screen.getByRole('button', { name: /隐藏/ }));
    expect(answer.textContent).toBe('••••••');
  });

  it('with only the mask from the server, asks for the answer on 显示 and forgets it on 隐藏', async () => {
    const reveal = vi.fn<() => Promise<string | null>>().mockResolvedValueOnce(null).mockResolvedValue('王芳');
    render(<MobileUserInfoCard userInfo={{ ...user, answer: HINT_ANSWER_MASK }} revealAnswer={reveal} />);
    const answer = screen.getByTestId('hint-answer');
    expect(answer.textContent).toBe('••••••');
    // Cancelled (no password given): still masked.
    await userEvent.click(screen.getByRole('button', { name: /显示/ }));
    expect(answer.textContent).toBe('••••••');
    await userEvent.click(screen.getByRole('button', { name: /显示/ }));
    expect(await screen.findByText('王芳')).toBe(answer);
    await userEvent.click(screen.getByRole('button', { name: /隐藏/ }));
    expect(answer.textContent).toBe('••••••');
    await userEvent.click(screen.getByRole('button', { name: /显示/ }));
    expect(reveal).toHaveBeenCalledTimes(3);
  });

  it('offers no 显示 for a mask it cannot resolve', () => {
    render(<MobileUserInfoCard userInfo={{ ...user, answer: HINT_ANSWER_MASK }} />);
    expect(screen.getByTestId('hint-answer').textContent).toBe('••••••');
    expect(screen.queryByRole('button', { name: /显示/ })).toBeNull();
  });

  it('says 未设置 for an empty phone and hint answer, shows a labelled avatar and the title', () => {
    useSysStore.setState({ examName: '' });
    render(<MobileUserInfoCard userInfo={{ ...user, answer: '' }} />);
    expect(screen.getByText('个人信息')).toBeTruthy();
    expect(screen.getAllByText('未设置')).toHaveLength(2);
    expect(screen.getByRole('img', { name: '头像' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /显示/ })).toBeNull();
  });

  it('titles itself with the exam name when one is chosen', () => {
    useSysStore.setState({ examName: '2026 年教师招聘' });
    render(<MobileBaseInfoCard userInfo={user} />);
    expect(screen.getByText('2026 年教师招聘')).toBeTruthy();
    expect(screen.getByText('1949-12-31')).toBeTruthy();
    expect(screen.getByText('女')).toBeTruthy();
  });
});
