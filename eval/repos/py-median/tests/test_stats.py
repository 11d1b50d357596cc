from stats import median


def test_odd_count():
    assert median([3, 1, 2]) == 2
