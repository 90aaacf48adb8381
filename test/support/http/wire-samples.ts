// Service payloads as PROTOCOL.md §4 describes them, for the fake server to answer with.

export const balanceRow = {
  total_cash: '1759070010.72',
  max_finance_amount: '977582000',
  remaining_finance_amount: '0',
  risk_level: 1,
  margin_call: '2598051051.50',
  currency: 'HKD',
  net_assets: '1800000000.01',
  init_margin: '100.5',
  maintenance_margin: '80.25',
  buy_power: '1500000000.99',
  cash_infos: [
    {
      withdraw_cash: '97592.30',
      available_cash: '195902464.37',
      frozen_cash: '11579339.13',
      settling_cash: '207288537.81',
      currency: 'HKD',
    },
  ],
  frozen_transaction_fees: [{ currency: 'HKD', frozen_transaction_fee: '12.5' }],
  some_new_field: 'ignored',
};

export const positionsData = {
  list: [
    {
      account_channel: 'lb',
      stock_info: [
        {
          symbol: '700.HK',
          symbol_name: 'TENCENT',
          quantity: '650',
          available_quantity: '450',
          currency: 'HKD',
          cost_price: '457.53',
          market: 'HK',
          init_quantity: '650',
        },
        {
          symbol: 'AAPL.US',
          symbol_name: 'Apple',
          quantity: '10',
          available_quantity: '',
          currency: 'USD',
          cost_price: '150.1',
          market: 'US',
          init_quantity: '',
        },
      ],
    },
  ],
};

export function orderRow(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_id: '706388312699592704',
    status: 'NewStatus',
    stock_name: 'TENCENT',
    quantity: '200',
    executed_quantity: '0',
    price: '50.000',
    executed_price: '0',
    submitted_at: '1651644897',
    side: 'Buy',
    symbol: '700.HK',
    order_type: 'LO',
    last_done: '',
    trigger_price: '',
    msg: '',
    tag: 'Normal',
    time_in_force: 'Day',
    expire_date: '',
    updated_at: '1651644898',
    trigger_at: '0',
    trailing_amount: '',
    trailing_percent: '',
    limit_offset: '',
    trigger_status: 'NOT_USED',
    currency: 'HKD',
    outside_rth: 'UnknownOutsideRth',
    limit_depth_level: 0,
    trigger_count: 0,
    monitor_price: '',
    remark: 'client-1',
    ...overrides,
  };
}

export function orderDetailRow(): Record<string, unknown> {
  return {
    ...orderRow({ status: 'PartialFilledStatus', executed_quantity: '100', executed_price: '49.9' }),
    history: [
      { price: '50', quantity: '200', status: 'NewStatus', msg: '', time: '1651644897' },
      { price: '49.9', quantity: '100', status: 'PartialFilledStatus', msg: 'partly filled', time: '1651644899' },
    ],
    charge_detail: {
      total_amount: '12.34',
      currency: 'HKD',
      items: [
        { code: 'BROKER_FEES', name: 'Broker fees', fees: [{ code: 'commission', name: 'Commission', amount: '10', currency: 'HKD' }] },
      ],
    },
    free_status: 'None',
    free_amount: '',
    free_currency: '',
    deductions_status: 'NONE',
    deductions_amount: '',
    deductions_currency: '',
    platform_deducted_status: 'NONE',
    platform_deducted_amount: '',
    platform_deducted_currency: '',
  };
}

export const watchlistData = {
  groups: [
    {
      id: '10086',
      name: 'Tech',
      securities: [{ symbol: 'AAPL.US', market: 'US', name: 'Apple', watched_price: '150.5', watched_at: '1651644897' }],
    },
  ],
};

export const topicItem = {
  id: 'T1',
  title: 'Hello',
  description: 'first',
  body: '# Hello',
  author: { member_id: 'M1', name: 'Ann', avatar: '' },
  tickers: ['700.HK'],
  hashtags: ['tech'],
  images: [],
  likes_count: 3,
  comments_count: 1,
  views_count: 10,
  shares_count: 0,
  topic_type: 'post',
  detail_url: 'https://example.invalid/t/1',
  created_at: '1700000000',
  updated_at: '1700000100',
};

export const replyItem = {
  id: 'R1',
  topic_id: 'T1',
  body: 'nice',
  reply_to_id: '0',
  author: { member_id: 'M2', name: 'Bob', avatar: '' },
  images: [],
  likes_count: 0,
  comments_count: 0,
  created_at: '1700000200',
};
