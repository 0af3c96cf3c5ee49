#!/usr/bin/env escript
%% -*- erlang -*-
%%! -noshell
-mode(compile).
%%
%% RabbitMQ's own selector evaluator (sjx_evaluator, from the installed rabbitmq_jms_topic_exchange
%% plugin) behind a JSON-lines interface, for differential testing.
%%
%% Usage: sjx_oracle.escript [EBIN_DIR] < cases.jsonl > verdicts.jsonl
%%
%% EBIN_DIR defaults to the plugin's ebin under /usr/lib/rabbitmq (Debian's rabbitmq-server).
%% Each input line is one JSON object:
%%
%%   {"id": "c1", "term": "{'>',{'ident',<<\"s\">>},5}.",
%%    "headers": [["s", "longstr", "abc"], ["n", "long", 5], ["f", "float", 0.029999999329447746]]}
%%
%% "term" is the binding argument rjms_erlang_selector exactly as a client sends it; it is read
%% the way the exchange reads it (its UTF-8 bytes as a character list, erl_scan, erl_parse).
%% Header types: longstr, signedint, long, short, byte, double, float, bool (values: JSON string,
%% integer, number, true/false). The table is sorted by name, as the exchange sorts it.
%%
%% Each output line: {"id": "c1", "result": R} with R one of
%%   true / false      the selector's value (true: the exchange routes the message);
%%   null              sjx_evaluator returned undefined (UNKNOWN: not routed);
%%   "raise"           the evaluator raised ("detail": the exception; the exchange does not
%%                     catch it, so the message is routed nowhere);
%%   "other"           the evaluator returned another value ("detail": it; not routed);
%%   "invalid_term"    the term does not parse (the exchange refuses the binding);
%%   "timeout"         no answer within 5 s.
%% Output is ASCII (JSON escapes), one line per input line, flushed per line.

main(Args) ->
    Ebin = case Args of
               [Dir] -> Dir;
               [] -> default_ebin()
           end,
    case code:add_patha(Ebin) of
        true -> ok;
        _ -> fail("no such directory: " ++ Ebin)
    end,
    case code:ensure_loaded(sjx_evaluator) of
        {module, _} -> ok;
        _ -> fail("sjx_evaluator not found in " ++ Ebin)
    end,
    ok = io:setopts(standard_io, [binary, {encoding, latin1}]),
    loop().

default_ebin() ->
    case filelib:wildcard("/usr/lib/rabbitmq/lib/rabbitmq_server-*/plugins/rabbitmq_jms_topic_exchange-*/ebin") of
        [Dir | _] -> Dir;
        [] -> fail("rabbitmq-server is not installed (apt-get install rabbitmq-server)")
    end.

fail(Message) ->
    io:format(standard_error, "sjx_oracle: ~s~n", [Message]),
    halt(2).

loop() ->
    case io:get_line(standard_io, "") of
        eof -> halt(0);
        {error, Reason} -> fail(io_lib:format("read error ~p", [Reason]));
        Line ->
            case string:trim(Line) of
                <<>> -> ok;
                Text -> answer(Text)
            end,
            loop()
    end.

answer(Text) ->
    {Case, _} = json(skip_ws(Text)),
    Id = maps:get(<<"id">>, Case),
    Verdict = case term_of(maps:get(<<"term">>, Case)) of
                  {ok, Term} -> judge(Term, table(maps:get(<<"headers">>, Case, [])));
                  {error, Why} -> [{<<"result">>, <<"invalid_term">>}, {<<"detail">>, Why}]
              end,
    write([{<<"id">>, Id} | Verdict]).

%% The exchange's decode_term/1 on the binding argument (a longstr: UTF-8 bytes).
term_of(Chars) ->
    Bytes = binary_to_list(unicode:characters_to_binary(Chars)),
    try
        {ok, Tokens, _} = erl_scan:string(Bytes),
        {ok, Term} = erl_parse:parse_term(Tokens),
        {ok, Term}
    catch
        C:E -> {error, iolist_to_binary(io_lib:format("~p:~p", [C, E]))}
    end.

table(Items) ->
    lists:keysort(1, [{unicode:characters_to_binary(N), binary_to_atom(T, utf8), value(T, V)} || [N, T, V] <- Items]).

value(<<"longstr">>, V) -> unicode:characters_to_binary(V);
value(<<"bool">>, V) -> V;
value(T, V) when T =:= <<"double">>; T =:= <<"float">> -> float(V);
value(_, V) when is_integer(V) -> V.

judge(Term, Headers) ->
    Self = self(),
    Pid = spawn(fun() -> Self ! {self(), catch_eval(Term, Headers)} end),
    receive
        {Pid, R} -> R
    after 5000 ->
        exit(Pid, kill),
        [{<<"result">>, <<"timeout">>}]
    end.

catch_eval(Term, Headers) ->
    try sjx_evaluator:evaluate(Term, Headers) of
        true -> [{<<"result">>, true}];
        false -> [{<<"result">>, false}];
        undefined -> [{<<"result">>, null}];
        Other -> [{<<"result">>, <<"other">>}, {<<"detail">>, show(Other)}]
    catch
        C:E -> [{<<"result">>, <<"raise">>}, {<<"detail">>, show({C, E})}]
    end.

show(X) -> iolist_to_binary(io_lib:format("~0p", [X])).

%% -- JSON out (ASCII only) -----------------------------------------------------------------------
write(Pairs) ->
    Body = lists:join(<<", ">>, [[enc(K), <<": ">>, enc(V)] || {K, V} <- Pairs]),
    ok = file:write(standard_io, [<<"{">>, Body, <<"}\n">>]).

enc(true) -> <<"true">>;
enc(false) -> <<"false">>;
enc(null) -> <<"null">>;
enc(B) when is_binary(B) -> [$", [esc(C) || C <- unicode:characters_to_list(B, latin1)], $"].

esc($") -> <<"\\\"">>;
esc($\\) -> <<"\\\\">>;
esc(C) when C < 32; C > 126 -> io_lib:format("\\u~4.16.0b", [C]);
esc(C) -> C.

%% -- JSON in (a small decoder: objects, arrays, strings, numbers, true/false/null) ---------------
json(<<${, R/binary>>) -> object(skip_ws(R), #{});
json(<<$[, R/binary>>) -> array(skip_ws(R), []);
json(<<$", R/binary>>) -> string(R, []);
json(<<"true", R/binary>>) -> {true, R};
json(<<"false", R/binary>>) -> {false, R};
json(<<"null", R/binary>>) -> {null, R};
json(B) -> number(B).

object(<<$}, R/binary>>, M) -> {M, R};
object(B, M) ->
    {K, R1} = json(B),
    <<$:, R2/binary>> = skip_ws(R1),
    {V, R3} = json(skip_ws(R2)),
    case skip_ws(R3) of
        <<$,, R4/binary>> -> object(skip_ws(R4), M#{K => V});
        <<$}, R4/binary>> -> {M#{K => V}, R4}
    end.

array(<<$], R/binary>>, Acc) -> {lists:reverse(Acc), R};
array(B, Acc) ->
    {V, R1} = json(B),
    case skip_ws(R1) of
        <<$,, R2/binary>> -> array(skip_ws(R2), [V | Acc]);
        <<$], R2/binary>> -> {lists:reverse([V | Acc]), R2}
    end.

%% Strings become UTF-8 binaries; \uD83D\uDE00 pairs are joined.
string(<<$", R/binary>>, Acc) -> {unicode:characters_to_binary(lists:reverse(Acc)), R};
string(<<$\\, $u, H:4/binary, $\\, $u, L:4/binary, R/binary>>, Acc)
  when H >= <<"D800">>, H =< <<"DBFF">>; H >= <<"d800">>, H =< <<"dbff">> ->
    Hi = binary_to_integer(H, 16), Lo = binary_to_integer(L, 16),
    string(R, [16#10000 + ((Hi - 16#D800) bsl 10) + (Lo - 16#DC00) | Acc]);
string(<<$\\, $u, H:4/binary, R/binary>>, Acc) -> string(R, [binary_to_integer(H, 16) | Acc]);
string(<<$\\, C, R/binary>>, Acc) ->
    string(R, [case C of $n -> $\n; $t -> $\t; $r -> $\r; $b -> $\b; $f -> $\f; _ -> C end | Acc]);
string(B, Acc) ->
    {[C], R} = take_char(B),
    string(R, [C | Acc]).

take_char(B) ->
    case unicode:characters_to_list(binary:part(B, 0, char_len(B))) of
        [C] -> {[C], binary:part(B, char_len(B), byte_size(B) - char_len(B))}
    end.

char_len(<<C, _/binary>>) when C < 16#80 -> 1;
char_len(<<C, _/binary>>) when C < 16#E0 -> 2;
char_len(<<C, _/binary>>) when C < 16#F0 -> 3;
char_len(_) -> 4.

number(B) ->
    {Text, R} = lists:splitwith(fun(C) -> lists:member(C, "+-0123456789.eE") end, binary_to_list(B)),
    V = case lists:any(fun(C) -> lists:member(C, ".eE") end, Text) of
            false -> list_to_integer(Text);
            true -> to_float(Text)
        end,
    {V, list_to_binary(R)}.

%% list_to_float wants digits on both sides of a point: "1e5" -> "1.0e5", "2.5" as it is.
to_float(Text) ->
    {Mantissa, Exp} = lists:splitwith(fun(C) -> C =/= $e andalso C =/= $E end, Text),
    M = case lists:member($., Mantissa) of true -> Mantissa; false -> Mantissa ++ ".0" end,
    list_to_float(M ++ Exp).

skip_ws(<<C, R/binary>>) when C =:= $\s; C =:= $\t; C =:= $\n; C =:= $\r -> skip_ws(R);
skip_ws(B) -> B.
