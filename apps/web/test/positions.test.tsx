import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EDUCATION_LEVELS, type Position } from '@zhikaoyun/shared';
import { describe, expect, it, vi } from 'vitest';
import { PositionBrowser } from '../src/features/content/positions/components/PositionBrowser';
import { EDUCATION_FILTER_LEVELS } from '../src/features/content/positions/education-levels';
import type { PositionFilter } from '../src/lib/api/positions';

const position: Position = {
  id: 1,
  examId: 1,
  code: '202601001',
  name: '初中语文教师',
  unit: '市教育局直属学校',
  headcount: 3,
  applicants: 0,
  requirements: { minEducation: '本科', majors: ['汉语言文学'], maxAge: 35, sex: '不限', politicalStatus: '不限', workYears: 0, note: '' },
} as Position;

const filter: PositionFilter = { keyword: '', unit: '', education: '', eligibleOnly: false, page: 1 };

describe('position list (public, plain filters)', () => {
  it('offers the shared education levels, lowest first', () => {
    expect(EDUCATION_FILTER_LEVELS).toEqual(EDUCATION_LEVELS);
  });

  it('searches on 搜索 and on Enter, clears with the clear icon, filters by unit and education', async () => {
    const onFilter = vi.fn();
    render(
      <PositionBrowser
        filter={filter}
        onFilter={onFilter}
        onPage={() => undefined}
        positions={{ data: { list: [position], total: 1, units: ['市教育局直属学校', '市卫生健康委员会下属医院'] }, isLoading: false }}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('共 1 个岗位');
    expect(screen.getByRole('article', { name: '初中语文教师（202601001）' })).toBeTruthy();
    const search = screen.getByPlaceholderText('搜索岗位名称、专业、代码或单位');
    expect(search.getAttribute('aria-label')).toBe('搜索岗位');
    await userEvent.type(search, ' 语文 ');
    await userEvent.click(screen.getByRole('button', { name: '搜索' }));
    expect(onFilter).toHaveBeenLastCalledWith({ keyword: '语文' });
    await userEvent.type(search, '教师{Enter}');
    expect(onFilter).toHaveBeenLastCalledWith({ keyword: '语文 教师' });
    await userEvent.click(screen.getByRole('button', { name: '清空关键词' }));
    expect(onFilter).toHaveBeenLastCalledWith({ keyword: '' });
    expect((search as HTMLInputElement).value).toBe('');

    const unit = screen.getByRole('combobox', { name: '招聘单位' });
    expect([...(unit as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      '全部单位',
      '市教育局直属学校',
      '市卫生健康委员会下属医院',
    ]);
    await userEvent.selectOptions(unit, '市卫生健康委员会下属医院');
    expect(onFilter).toHaveBeenLastCalledWith({ unit: '市卫生健康委员会下属医院' });
    const education = screen.getByRole('combobox', { name: '我的学历' });
    expect([...(education as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      '全部学历',
      ...EDUCATION_LEVELS.map((e) => `${e}可报`),
    ]);
    await userEvent.selectOptions(education, '本科可报');
    expect(onFilter).toHaveBeenLastCalledWith({ education: '本科' });
  });

  it('says so when nothing matches', () => {
    render(
      <PositionBrowser
        filter={filter}
        onFilter={() => undefined}
        onPage={() => undefined}
        positions={{ data: { list: [], total: 0, units: [] }, isLoading: false }}
      />,
    );
    expect(screen.getByText('没有符合条件的岗位，请调整搜索条件')).toBeTruthy();
  });
});
