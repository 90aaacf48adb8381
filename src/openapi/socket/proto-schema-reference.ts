// The quote messages beyond quotes and candles (PROTOCOL.md §7.2; longportapp/openapi-protobufs quote/api.proto):
// recent trades and intraday lines, options, warrants, broker queues, participants, calc indexes and the quote
// packages of the profile. Enums are int32 here too, so unknown values from a newer service still decode.
export const REFERENCE_PROTO_SCHEMA = `
syntax = "proto3";
package longport;

message SecurityTradeRequest { string symbol = 1; int32 count = 2; }
message SecurityTradeResponse { string symbol = 1; repeated Trade trades = 2; }
message SecurityIntradayRequest { string symbol = 1; int32 trade_session = 2; }
message IntradayLine { string price = 1; int64 timestamp = 2; int64 volume = 3; string turnover = 4; string avg_price = 5; }
message SecurityIntradayResponse { string symbol = 1; repeated IntradayLine lines = 2; }

message OptionExtend {
  string implied_volatility = 1; int64 open_interest = 2; string expiry_date = 3; string strike_price = 4;
  string contract_multiplier = 5; string contract_type = 6; string contract_size = 7; string direction = 8;
  string historical_volatility = 9; string underlying_symbol = 10;
}
message OptionQuote {
  string symbol = 1; string last_done = 2; string prev_close = 3; string open = 4; string high = 5; string low = 6;
  int64 timestamp = 7; int64 volume = 8; string turnover = 9; int32 trade_status = 10; OptionExtend option_extend = 11;
}
message OptionQuoteResponse { repeated OptionQuote secu_quote = 1; }

message WarrantExtend {
  string implied_volatility = 1; string expiry_date = 2; string last_trade_date = 3; string outstanding_ratio = 4;
  int64 outstanding_qty = 5; string conversion_ratio = 6; string category = 7; string strike_price = 8;
  string upper_strike_price = 9; string lower_strike_price = 10; string call_price = 11; string underlying_symbol = 12;
}
message WarrantQuote {
  string symbol = 1; string last_done = 2; string prev_close = 3; string open = 4; string high = 5; string low = 6;
  int64 timestamp = 7; int64 volume = 8; string turnover = 9; int32 trade_status = 10; WarrantExtend warrant_extend = 11;
}
message WarrantQuoteResponse { repeated WarrantQuote secu_quote = 2; }

message Brokers { int32 position = 1; repeated int32 broker_ids = 2; }
message SecurityBrokersResponse { string symbol = 1; repeated Brokers ask_brokers = 2; repeated Brokers bid_brokers = 3; }
message PushBrokers { string symbol = 1; int64 sequence = 2; repeated Brokers ask_brokers = 3; repeated Brokers bid_brokers = 4; }
message ParticipantInfo { repeated int32 broker_ids = 1; string participant_name_cn = 2; string participant_name_en = 3; string participant_name_hk = 4; }
message ParticipantBrokerIdsRequest { }
message ParticipantBrokerIdsResponse { repeated ParticipantInfo participant_broker_numbers = 1; }

message OptionChainDateListResponse { repeated string expiry_date = 1; }
message OptionChainDateStrikeInfoRequest { string symbol = 1; string expiry_date = 2; }
message StrikePriceInfo { string price = 1; string call_symbol = 2; string put_symbol = 3; bool standard = 4; }
message OptionChainDateStrikeInfoResponse { repeated StrikePriceInfo strike_price_info = 1; }

message IssuerInfo { int32 id = 1; string name_cn = 2; string name_en = 3; string name_hk = 4; }
message IssuerInfoRequest { }
message IssuerInfoResponse { repeated IssuerInfo issuer_info = 1; }

message FilterConfig {
  int32 sort_by = 1; int32 sort_order = 2; int32 sort_offset = 3; int32 sort_count = 4; repeated int32 type = 5;
  repeated int32 issuer = 6; repeated int32 expiry_date = 7; repeated int32 price_type = 8; repeated int32 status = 9;
}
message WarrantFilterListRequest { string symbol = 1; FilterConfig filter_config = 2; int32 language = 3; }
message FilterWarrant {
  string symbol = 1; string name = 2; string last_done = 3; string change_rate = 4; string change_val = 5; int64 volume = 6;
  string turnover = 7; string expiry_date = 8; string strike_price = 9; string upper_strike_price = 10;
  string lower_strike_price = 11; string outstanding_qty = 12; string outstanding_ratio = 13; string premium = 14;
  string itm_otm = 15; string implied_volatility = 16; string delta = 17; string call_price = 18; string to_call_price = 19;
  string effective_leverage = 20; string leverage_ratio = 21; string conversion_ratio = 22; string balance_point = 23;
  int32 status = 24; int32 type = 25;
}
message WarrantFilterListResponse { repeated FilterWarrant warrant_list = 1; int32 total_count = 2; }

message SecurityCalcQuoteRequest { repeated string symbols = 1; repeated int32 calc_index = 2; }
message SecurityCalcIndex {
  string symbol = 1; string last_done = 2; string change_val = 3; string change_rate = 4; int64 volume = 5;
  string turnover = 6; string ytd_change_rate = 7; string turnover_rate = 8; string total_market_value = 9;
  string capital_flow = 10; string amplitude = 11; string volume_ratio = 12; string pe_ttm_ratio = 13; string pb_ratio = 14;
  string dividend_ratio_ttm = 15; string five_day_change_rate = 16; string ten_day_change_rate = 17;
  string half_year_change_rate = 18; string five_minutes_change_rate = 19; string expiry_date = 20; string strike_price = 21;
  string upper_strike_price = 22; string lower_strike_price = 23; int64 outstanding_qty = 24; string outstanding_ratio = 25;
  string premium = 26; string itm_otm = 27; string implied_volatility = 28; string warrant_delta = 29; string call_price = 30;
  string to_call_price = 31; string effective_leverage = 32; string leverage_ratio = 33; string conversion_ratio = 34;
  string balance_point = 35; int64 open_interest = 36; string delta = 37; string gamma = 38; string theta = 39;
  string vega = 40; string rho = 41;
}
message SecurityCalcQuoteResponse { repeated SecurityCalcIndex security_calc_index = 1; }

message PackageDetail { string key = 1; string name = 2; string description = 4; int64 start = 5; int64 end = 6; }
message MarketPackageDetail { repeated PackageDetail packages = 1; string warning_msg = 4; }
message UserQuoteLevelDetail { map<string, PackageDetail> by_package_key = 1; map<string, MarketPackageDetail> by_market_code = 2; }
`;
