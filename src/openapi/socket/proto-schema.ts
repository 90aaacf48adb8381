// The protobuf (proto3) schema of the long connection, written from the field numbers in PROTOCOL.md §5.
// Enums are declared as int32 (wire-identical) so unknown values from a newer service still decode.
export const PROTO_SCHEMA = `
syntax = "proto3";
package longport;

message Error { uint64 code = 1; string msg = 2; }
message AuthRequest { string token = 1; map<string, string> metadata = 2; }
message AuthResponse { string session_id = 1; int64 expires = 2; uint32 limit = 3; uint32 online = 4; }
message ReconnectRequest { string session_id = 1; map<string, string> metadata = 2; }
message ReconnectResponse { string session_id = 1; int64 expires = 2; uint32 limit = 3; uint32 online = 4; }
message Heartbeat { int64 timestamp = 1; int32 heartbeat_id = 2; }
message Close { int32 code = 1; string reason = 2; }

message UserQuoteProfileRequest { string language = 1; }
message RateLimit { int32 command = 1; int32 limit = 2; int32 burst = 3; }
message UserQuoteProfileResponse {
  int64 member_id = 1; string quote_level = 2; int32 subscribe_limit = 3; int32 history_candlestick_limit = 4;
  repeated RateLimit rate_limit = 5; UserQuoteLevelDetail quote_level_detail = 6;
}

message MultiSecurityRequest { repeated string symbol = 1; }
message SecurityRequest { string symbol = 1; }

message StaticInfo {
  string symbol = 1; string name_cn = 2; string name_en = 3; string name_hk = 4; string listing_date = 5;
  string exchange = 6; string currency = 7; int32 lot_size = 8; int64 total_shares = 9; int64 circulating_shares = 10;
  int64 hk_shares = 11; string eps = 12; string eps_ttm = 13; string bps = 14; string dividend_yield = 15;
  repeated int32 stock_derivatives = 16; string board = 17;
}
message SecurityStaticInfoResponse { repeated StaticInfo secu_static_info = 1; }

message PrePostQuote {
  string last_done = 1; int64 timestamp = 2; int64 volume = 3; string turnover = 4; string high = 5; string low = 6;
  string prev_close = 7;
}
message SecurityQuote {
  string symbol = 1; string last_done = 2; string prev_close = 3; string open = 4; string high = 5; string low = 6;
  int64 timestamp = 7; int64 volume = 8; string turnover = 9; int32 trade_status = 10;
  PrePostQuote pre_market_quote = 11; PrePostQuote post_market_quote = 12; PrePostQuote over_night_quote = 13;
}
message SecurityQuoteResponse { repeated SecurityQuote secu_quote = 1; }

message SubscribeRequest { repeated string symbol = 1; repeated int32 sub_type = 2; bool is_first_push = 3; }
message UnsubscribeRequest { repeated string symbol = 1; repeated int32 sub_type = 2; bool unsub_all = 3; }
message SubscriptionRequest { }
message SubTypeList { string symbol = 1; repeated int32 sub_type = 2; }
message SubscriptionResponse { repeated SubTypeList sub_list = 1; }

message MarketTradeDayRequest { string market = 1; string beg_day = 2; string end_day = 3; }
message MarketTradeDayResponse { repeated string trade_day = 1; repeated string half_trade_day = 2; }

message TradePeriod { int32 beg_time = 1; int32 end_time = 2; int32 trade_session = 3; }
message MarketTradePeriod { string market = 1; repeated TradePeriod trade_session = 2; }
message MarketTradePeriodRequest { }
message MarketTradePeriodResponse { repeated MarketTradePeriod market_trade_session = 1; }

message SecurityCandlestickRequest { string symbol = 1; int32 period = 2; int32 count = 3; int32 adjust_type = 4; int32 trade_session = 5; }
message OffsetQuery { int32 direction = 1; string date = 2; string minute = 3; int32 count = 4; }
message DateQuery { string start_date = 1; string end_date = 2; }
message SecurityHistoryCandlestickRequest {
  string symbol = 1; int32 period = 2; int32 adjust_type = 3; int32 query_type = 4;
  OffsetQuery offset_request = 5; DateQuery date_request = 6; int32 trade_session = 7;
}
message Candlestick {
  string close = 1; string open = 2; string low = 3; string high = 4; int64 volume = 5; string turnover = 6;
  int64 timestamp = 7; int32 trade_session = 8;
}
message SecurityCandlestickResponse { string symbol = 1; repeated Candlestick candlesticks = 2; }

message CapitalFlowIntradayRequest { string symbol = 1; }
message CapitalFlowLine { string inflow = 1; int64 timestamp = 2; }
message CapitalFlowIntradayResponse { string symbol = 1; repeated CapitalFlowLine capital_flow_lines = 2; }
message CapitalDistribution { string large = 1; string medium = 2; string small = 3; }
message CapitalDistributionResponse { string symbol = 1; int64 timestamp = 2; CapitalDistribution capital_in = 3; CapitalDistribution capital_out = 4; }

message PushQuote {
  string symbol = 1; int64 sequence = 2; string last_done = 3; string open = 4; string high = 5; string low = 6;
  int64 timestamp = 7; int64 volume = 8; string turnover = 9; int32 trade_status = 10; int32 trade_session = 11;
  int64 current_volume = 12; string current_turnover = 13; int32 tag = 14;
}
message DepthLevel { int32 position = 1; string price = 2; int64 volume = 3; int64 order_num = 4; }
message SecurityDepthResponse { string symbol = 1; repeated DepthLevel ask = 2; repeated DepthLevel bid = 3; }
message PushDepth { string symbol = 1; int64 sequence = 2; repeated DepthLevel ask = 3; repeated DepthLevel bid = 4; }
message Trade { string price = 1; int64 volume = 2; int64 timestamp = 3; string trade_type = 4; int32 direction = 5; int32 trade_session = 6; }
message PushTrade { string symbol = 1; int64 sequence = 2; repeated Trade trade = 3; }

message Sub { repeated string topics = 1; }
message SubFail { string topic = 1; string reason = 2; }
message SubResponse { repeated string success = 1; repeated SubFail fail = 2; repeated string current = 3; }
message Unsub { repeated string topics = 1; }
message UnsubResponse { repeated string current = 3; }
message Notification { string topic = 1; int32 content_type = 2; int32 dispatch_type = 3; bytes data = 4; }
`;
