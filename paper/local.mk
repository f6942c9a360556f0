# The paper: built from committed results by 'make paper' (coming).
