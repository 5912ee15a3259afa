import { App, Button, Select } from 'antd';
import { useState } from 'react';
import { useChooseSiteCity, useSiteCity } from '../api';
import './site-city.css';

/**
 * 考点城市: on an approved or confirmed application of an exam that offers the choice, the
 * candidate picks the city of their exam site, and may change it until seats are arranged.
 */
export function SiteCityCard({ examId }: { examId: number }) {
  const { message } = App.useApp();
  const mine = useSiteCity(examId);
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const choose = useChooseSiteCity(examId, (city) => {
    void message.success(`考点城市已选为 ${city}`);
    setPicked(undefined);
  });
  const c = mine.data;
  if (!c?.enabled) return null;
  const value = picked ?? c.city ?? undefined;
  return (
    <section className="confirm-step site-city" aria-label="考点城市">
      <h3 className="confirm-step__title">考点城市</h3>
      {c.arranged ? (
        <p className="confirm-step__deadline">
          {c.city ? (
            <>
              您选择的考点城市：<strong>{c.city}</strong>。考场已编排，不能再修改。
            </>
          ) : (
            '考场已编排。您未选择考点城市，已由考试机构统一安排考点。'
          )}
        </p>
      ) : c.cities.length === 0 ? (
        <p className="confirm-step__deadline">考试机构尚未公布考点城市，请稍后再来选择。</p>
      ) : (
        <>
          <p className="confirm-step__deadline">
            {c.city ? (
              <>
                已选择：<strong>{c.city}</strong>，编排考场前可以修改。
              </>
            ) : (
              '请选择参加考试的城市，考场将安排在该城市的考点。未选择的由考试机构统一安排。'
            )}
          </p>
          <div className="site-city__row">
            <Select
              aria-label="考点城市"
              placeholder="请选择考点城市"
              value={value}
              onChange={setPicked}
              options={c.cities.map((x) => ({ value: x, label: x }))}
              size="large"
            />
            <Button
              type="primary"
              size="large"
              disabled={!value || value === c.city}
              loading={choose.isPending}
              onClick={() => value && choose.mutate(value)}
            >
              {c.city ? '修改' : '确定'}
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
