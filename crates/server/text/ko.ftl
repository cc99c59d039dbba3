# 서버 자체 메시지(인수·복수형 포함)와 게임 페이지가 형식화하는 메시지.

step-choose = 강조된 항목 중 하나를 고르세요
help-wait = 상대의 차례를 기다리세요.
help-step-back = Esc 또는 오른쪽 클릭: 한 단계 뒤로.
help-confirm = 강조된 항목을 눌러 계속하거나 아래에서 확정하세요.
turns = { $n ->
   *[other] { $n }수
}
moves-legal = { $n ->
   *[other] 둘 수 있는 수 { $n }개
}
player-P1 = 플레이어 1
player-P2 = 플레이어 2
to-move = { $player } 차례
result-you-won = 이겼습니다
result-you-lost = 졌습니다
result-wins = { $player } 승리
result-draw = 무승부
reason-resigned = { $player } 기권
reason-agreed = 합의에 의해
turn-number = { $n }번째 수
coordinates = 좌표
flip-board = 판 뒤집기
new-game = 새 게임
game-over = 게임 종료
live = 진행 중
finished = 종료됨
you = 나
computer-level = 컴퓨터, { $level }단계
opponent-friend = 친구(초대 링크)
opponent-hotseat = 한 화면에서
waiting-for-you = 내 차례
waiting-for-them = 상대 차례
started = { $date } 시작
board-item = { $id }
board = 판
rematch = 재대국 (색 바꾸기)
nav-first = 처음으로
nav-previous = 이전 수
nav-next = 다음 수
nav-last = 마지막 수
invite-link = 초대 링크
analysis = 분석
analyse-game = 분석하기
analysis-after-the-game = 게임이 끝난 뒤에 분석할 수 있습니다.
back-to-game = 게임으로 돌아가기
back-to-game-line = 게임의 수로 돌아가기
side-line = 변화수
review = 복기
review-start = 게임 전체 복기
review-running = 복기 중… { $total }수 중 { $done }
evaluation = 평가
evaluation-graph = 게임 전체의 평가
engine-line = 깊이 { $depth } · { $score } · { $line }
engine-thinking = 엔진이 살펴보는 중…
game-over-here = 이 국면에서 게임이 끝났습니다.
mark-inaccuracy = 부정확한 수
mark-mistake = 실수
mark-blunder = 큰 실수
summary-row = { $player }: { $inaccuracies } ?! · { $mistakes } ? · { $blunders } ?? · 평균 손실 { $loss }
help-explore = 강조된 곳을 눌러 다른 수를 두어 보세요. ←, →로 게임의 수를 오갑니다.
