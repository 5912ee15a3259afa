import {
  AuditOutlined,
  EditOutlined,
  FileSearchOutlined,
  FormOutlined,
  IdcardOutlined,
  NotificationOutlined,
  PhoneOutlined,
  SolutionOutlined,
} from '@ant-design/icons';
import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { CurrentExamBanner } from '../../../../components/CurrentExamBanner';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { buttonClass } from '../../../../components/plain/Button';
import { useSiteName } from '../../../../components/site-name';
import { useSysStore } from '../../../../lib/store';

const STEPS = [
  { icon: <IdcardOutlined aria-hidden />, title: '注册账号', text: '本人身份证号注册' },
  { icon: <FileSearchOutlined aria-hidden />, title: '阅读须知', text: '签署诚信承诺' },
  { icon: <EditOutlined aria-hidden />, title: '填写信息', text: '草稿自动保存' },
  { icon: <SolutionOutlined aria-hidden />, title: '选择岗位', text: '查看报考条件' },
  { icon: <FormOutlined aria-hidden />, title: '确认提交', text: '核对后提交' },
  { icon: <AuditOutlined aria-hidden />, title: '查看审核', text: '随时查询状态' },
];

/** 引导页: what the site is, where to start, and whom to ask. */
export default function GuidePage() {
  const siteName = useSiteName();
  const setting = useSysStore((s) => s.sysSetting);
  const navigate = useNavigate();
  const go = (to: string) => (e: MouseEvent) => {
    e.preventDefault();
    void navigate(to);
  };

  return (
    <div className="guide-page">
      <header className="guide-hero">
        <p className="guide-hero__office">{setting?.officeName ?? '\u00a0'}</p>
        <h1 className="guide-hero__title">{siteName}</h1>
        <p className="guide-hero__sub">网上报名 · 资格审查 · 状态查询</p>
        <div className="guide-hero__actions">
          {/* Links (with the router's navigation once the script runs): they work from the HTML alone. */}
          <a className={buttonClass({ primary: true, large: true, block: true }, 'guide-hero__login')} href="/login" onClick={go('/login')}>
            <span>登录报名</span>
          </a>
          <a className={buttonClass({ large: true, block: true, ghost: true })} href="/register" onClick={go('/register')}>
            <span>注册账号</span>
          </a>
        </div>
      </header>

      {setting?.announcement && (
        <MobileContainerCard className="guide-announcement">
          <NotificationOutlined className="guide-announcement__icon" aria-hidden />
          <p>{setting.announcement}</p>
        </MobileContainerCard>
      )}

      <CurrentExamBanner />

      <nav className="guide-entries" aria-label="快捷入口">
        <Link to="/job-positions-only-read" className="guide-entry">
          <SolutionOutlined aria-hidden />
          <span className="guide-entry__title">招聘岗位</span>
          <span className="guide-entry__text">无需登录即可查看</span>
        </Link>
        <Link to="/notice-list" className="guide-entry">
          <NotificationOutlined aria-hidden />
          <span className="guide-entry__title">通知公告</span>
          <span className="guide-entry__text">报名安排与最新通知</span>
        </Link>
      </nav>

      <MobileContainerCard title="报名流程">
        <ol className="guide-steps">
          {STEPS.map((step, i) => (
            <li key={step.title} className="guide-step">
              <span className="guide-step__icon" aria-hidden>
                {step.icon}
              </span>
              <span className="guide-step__title">
                {i + 1}. {step.title}
              </span>
              <span className="guide-step__text">{step.text}</span>
            </li>
          ))}
        </ol>
      </MobileContainerCard>

      {setting && (setting.contactPhone || setting.address) && (
        <MobileContainerCard title="咨询服务">
          <dl className="guide-contact">
            {setting.contactPhone && (
              <div>
                <dt>
                  <PhoneOutlined aria-hidden /> 咨询电话
                </dt>
                <dd>
                  <a href={`tel:${setting.contactPhone}`}>{setting.contactPhone}</a>
                </dd>
              </div>
            )}
            {setting.workHours && (
              <div>
                <dt>服务时间</dt>
                <dd>{setting.workHours}</dd>
              </div>
            )}
            {setting.address && (
              <div>
                <dt>地址</dt>
                <dd>{setting.address}</dd>
              </div>
            )}
          </dl>
        </MobileContainerCard>
      )}

      <footer className="guide-footer">
        <p>{setting?.officeName ? `${setting.officeName} 主办` : siteName}</p>
        {setting?.icp && <p>{setting.icp}</p>}
      </footer>
    </div>
  );
}
