import { formatPoints, type LaterStage, type StageList } from '@zhikaoyun/shared';
import { Input, Segmented, Skeleton } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../../components/plain/Empty';
import { formatDateTime } from '../../../../components/format';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { useActiveExam } from '../../../../lib/api/exams-queries';
import { useStageLists } from '../../../../lib/api/stages';
import { useInterviewList } from '../api';
import '../scores.css';

const examIdOf = (text: string | null) => (text !== null && /^[1-9]\d{0,9}$/.test(text) ? Number(text) : undefined);

const SWITCH_LABEL: Readonly<Record<LaterStage, string>> = {
  qualification: '资格复审',
  interview: '综合成绩',
  medical: '体检',
  hire: '拟录用',
};

/** A published list of a later stage: per position, its candidates with masked names. */
function StageListView({ list }: { list: StageList }) {
  const scored = list.stage !== 'qualification';
  return (
    <>
      <MobileContainerCard title={list.title}>
        <p className="interview-list__intro">
          {list.examName}：{list.title}，公示时间 {formatDateTime(list.publishedAt)}。
        </p>
      </MobileContainerCard>
      {list.positions.length === 0 ? (
        <MobileContainerCard>
          <EmptyState text="名单暂无考生" />
        </MobileContainerCard>
      ) : (
        list.positions.map((p) => (
          <MobileContainerCard
            key={p.positionId}
            title={p.positionName}
            extra={<span className="interview-list__meta">招聘 {p.headcount} 人</span>}
          >
            <table className="interview-table">
              <thead>
                <tr>
                  {scored && <th scope="col">排名</th>}
                  <th scope="col">准考证号</th>
                  <th scope="col">姓名</th>
                  {scored && <th scope="col">综合成绩</th>}
                </tr>
              </thead>
              <tbody>
                {p.list.map((c) => (
                  <tr key={c.ticketNo}>
                    {scored && <td>{c.rank ?? '—'}</td>}
                    <td className="interview-table__no">{c.ticketNo}</td>
                    <td>{c.name}</td>
                    {scored && <td>{formatPoints(c.combined)}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </MobileContainerCard>
        ))
      )}
    </>
  );
}

/** 面试名单 (公示): per position, who enters the interview, names partly hidden; open to anyone. */
export default function InterviewListPage() {
  const [params, setParams] = useSearchParams();
  const asked = examIdOf(params.get('examId'));
  const active = useActiveExam();
  const examId = asked ?? active.exam?.id;
  const list = useInterviewList(examId);
  const [keyword, setKeyword] = useState('');
  // The later stages' lists, once published, beside the interview list (the choice is in the address).
  const stageLists = useStageLists(examId);
  const shown = stageLists.find((s) => s.stage === params.get('stage'));
  const switcher =
    stageLists.length === 0 ? null : (
      <Segmented
        aria-label="名单"
        className="interview-list__switch"
        value={shown?.stage ?? 'interviewList'}
        options={[
          { value: 'interviewList', label: '面试名单' },
          ...stageLists.map((s) => ({ value: s.stage, label: SWITCH_LABEL[s.stage] })),
        ]}
        onChange={(v) => {
          const next = new URLSearchParams(params);
          if (v === 'interviewList') next.delete('stage');
          else next.set('stage', String(v));
          setParams(next, { replace: true });
        }}
      />
    );
  if (shown)
    return (
      <div className="interview-list">
        {switcher}
        <StageListView list={shown.list} />
      </div>
    );

  if (examId === undefined && !active.isLoading)
    return (
      <MobileContainerCard title="面试名单">
        <EmptyState text="暂无公示的面试名单" />
      </MobileContainerCard>
    );
  if (list.isPending)
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 8 }} />
      </MobileContainerCard>
    );
  if (list.isError)
    return (
      <MobileContainerCard title="面试名单">
        <EmptyState text={list.error.message} />
      </MobileContainerCard>
    );

  const k = keyword.trim();
  const positions = list.data.positions
    .map((p) => ({ ...p, list: k === '' ? p.list : p.list.filter((c) => c.ticketNo.includes(k)) }))
    .filter((p) => k === '' || p.list.length > 0 || p.positionName.includes(k) || p.positionCode.includes(k));

  return (
    <div className="interview-list">
      {switcher}
      <MobileContainerCard title="面试名单公示">
        <p className="interview-list__intro">
          {list.data.examName}：以下考生按岗位招聘人数的比例进入面试（与最后一名成绩相同者一并进入）。公示时间{' '}
          {formatDateTime(list.data.publishedAt)}。
        </p>
        <Input.Search
          allowClear
          placeholder="输入准考证号或岗位查找"
          aria-label="查找准考证号或岗位"
          // A worded button: antd's icon-only one is read "search" by a screen reader.
          enterButton="查找"
          onChange={(e) => setKeyword(e.target.value)}
        />
      </MobileContainerCard>
      {positions.length === 0 ? (
        <MobileContainerCard>
          <EmptyState text={k === '' ? '暂无进入面试的考生' : '未找到符合条件的考生'} />
        </MobileContainerCard>
      ) : (
        positions.map((p) => (
          <MobileContainerCard
            key={p.positionId}
            title={`${p.positionCode} ${p.positionName}`}
            extra={<span className="interview-list__meta">招聘 {p.headcount} 人</span>}
          >
            <p className="interview-list__cut">
              进入面试最低分 <strong>{formatPoints(p.cutOff)}</strong>，共 {p.list.length} 人
            </p>
            <table className="interview-table">
              <thead>
                <tr>
                  <th scope="col">排名</th>
                  <th scope="col">准考证号</th>
                  <th scope="col">姓名</th>
                  <th scope="col">总成绩</th>
                </tr>
              </thead>
              <tbody>
                {p.list.map((c) => (
                  <tr key={c.ticketNo}>
                    <td>{c.rank}</td>
                    <td className="interview-table__no">{c.ticketNo}</td>
                    <td>{c.name}</td>
                    <td>{formatPoints(c.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </MobileContainerCard>
        ))
      )}
    </div>
  );
}
